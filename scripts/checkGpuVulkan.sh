#!/usr/bin/env bash
# The GPU path on this machine, without a GPU: Mesa's software Vulkan device (lavapipe) stands in for one, and
# node-llama-cpp's official linux-x64-vulkan binary (what the linux-x64 package carries) runs a scripted swarm with
# --gpu vulkan; the test (test/gpu/gpuVulkanSwarm.test.ts) checks every layer is offloaded and that the launch and
# the KV budget name the device and the KV in VRAM. Not in CI's tiers: lavapipe runs each generation step of the
# swarm in seconds (measured 15 minutes for the swarm on a 2-core machine shared with other builds, load average 14-24).
# Installs mesa-vulkan-drivers and libvulkan1 when missing (about 9 s of apt here, 15.7 MB of archives).
# Linux x64, from a clone after `npm ci`.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
for p in mesa-vulkan-drivers libvulkan1; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== apt: ${missing[*]} (lavapipe, Mesa's software Vulkan device)"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -q
  as_root apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
echo "== build and compile the tests"
npm run build >/dev/null
npx tsc -p tsconfig.test.json
echo "== a swarm on lavapipe with the official Vulkan binary"
npx mocha --require ./out/test/isolatedGit.js --timeout 3600000 out/test/gpu/gpuVulkanSwarm.test.js
echo "== checkGpuVulkan.sh: $((SECONDS - started)) s"
