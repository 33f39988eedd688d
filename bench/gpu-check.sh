#!/usr/bin/env bash
# The device check for the GPU backend: build the patched runtime (shared cells) for CUDA, then run the runtime
# benchmark in shared-cells mode for N = 1, 2, 4, 8, 10, 16, 32, 64 agents on the 0.5B-shape model with every layer
# on the GPU, and print each N's step time relative to N = 1 and its dispatches per step. Run it from a clone after
# `npm ci`, on a machine with an NVIDIA GPU, its driver and the CUDA Toolkit (nvcc). What to expect: README, "GPU".
#
# Time: the CUDA build compiles for this machine's GPU and CPU only (CMAKE_CUDA_ARCHITECTURES=native,
# SWARMBOARD_RUNTIME_BUILD=native), about 4-6 minutes on 16 cores, once: it is cached like every runtime build
# (~/.cache/swarmboard/llama-builds, key ...-gpu-cuda). Such a build runs only on GPUs and CPUs like this one's;
# the packaged extension is built the portable way. The benchmark takes 1-2 minutes on a data-centre GPU.
#
# Environment: GPU_CHECK_AGENTS (default 1,2,4,8,10,16,32,64), GPU_CHECK_TRUNK (1024), GPU_CHECK_GENERATE (32),
# GPU_CHECK_THREADS (4), GPU_CHECK_OUT (bench/results/gpu-check.json).
set -euo pipefail
cd "$(dirname "$0")/.."

agents="${GPU_CHECK_AGENTS:-1,2,4,8,10,16,32,64}"
trunk="${GPU_CHECK_TRUNK:-1024}"
generate="${GPU_CHECK_GENERATE:-32}"
threads="${GPU_CHECK_THREADS:-4}"
out="${GPU_CHECK_OUT:-bench/results/gpu-check.json}"

if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi >/dev/null 2>&1; then
  echo "gpu-check: no NVIDIA GPU answers here (nvidia-smi missing or failing): this check needs one." >&2
  exit 2
fi
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
if ! command -v nvcc >/dev/null 2>&1; then
  echo "gpu-check: nvcc not found: install the CUDA Toolkit 12 (it builds the runtime's CUDA backend)." >&2
  exit 2
fi
nvcc --version | tail -n 1

echo "== building (or restoring from the cache) the patched runtime for CUDA"
started=$(date +%s)
SWARMBOARD_RUNTIME_BUILD=native NODE_LLAMA_CPP_CMAKE_OPTION_CMAKE_CUDA_ARCHITECTURES=native \
  node scripts/buildRuntime.mjs --gpu cuda
echo "   runtime ready after $(($(date +%s) - started)) s"

echo "== building Swarmboard"
npm run build >/dev/null

echo "== benchmark: shared cells, N = ${agents}, P = ${trunk}, T = ${generate}, ${threads} CPU threads, --gpu cuda"
mkdir -p "$(dirname "$out")"
node dist/bench/runtimeBench.js --gpu cuda --modes shared-cells --agents "$agents" --trunks "$trunk" \
  --generate "$generate" --tails none --threads "$threads" --json "$out"
echo "== done in $(($(date +%s) - started)) s; figures in $out"
