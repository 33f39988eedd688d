#!/usr/bin/env bash
# The GPU path on this machine, without a GPU: Mesa's software Vulkan device (lavapipe) stands in for one, and
# node-llama-cpp's official linux-x64-vulkan binary (what the linux-x64 package carries) runs a scripted swarm with
# --gpu vulkan; the test (test/gpu/gpuVulkanSwarm.test.ts) checks every layer is offloaded and that the launch and
# the KV budget name the device and the KV in VRAM. Not in CI's tiers: lavapipe runs each generation step of the
# swarm in seconds (measured 15 minutes for the swarm on a 2-core machine shared with other builds, load average 14-24).
# Then the user's command builds the patched shared-cells runtime for Vulkan (`swarmboard runtime build --gpu vulkan`:
# its tool check first, test/gpu/vulkanBuildTools.test.ts, then the same builder as npm ci, scripts/buildRuntime.mjs,
# portable CPU code as it ships; cached by key like the CPU build, so a second run compiles nothing) and the runtime
# probe runs on lavapipe (test/gpu/patchedVulkan.test.ts): shared cells on the device, the CPU build's greedy tokens.
# The patched build is moved aside while the official binary's test runs (it would be preferred); at the end the CPU
# build is the last build again (the CPU tiers' install check reads lastBuild.json).
# Installs mesa-vulkan-drivers and libvulkan1 (lavapipe), and libvulkan-dev and spirv-headers (ggml's Vulkan backend's
# build) when missing; the shader compiler and Vulkan headers come from scripts/vulkanToolchain.sh (Debian 12's are
# too old for this llama.cpp). Linux x64 on Debian 12, from a clone after `npm ci`.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
for p in mesa-vulkan-drivers libvulkan1 libvulkan-dev spirv-headers; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== apt: ${missing[*]} (lavapipe, Mesa's software Vulkan device)"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -q
  as_root apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
echo "== build and compile the tests"
npm run build >/dev/null
npx tsc -p tsconfig.test.json
patched=node_modules/node-llama-cpp/llama/localBuilds/linux-x64-vulkan
aside=""
if [ -d "$patched" ]; then
  aside="$(mktemp -d)"
  mv "$patched" "$aside/"
  trap '[ -d "$aside/linux-x64-vulkan" ] && [ ! -d "$patched" ] && mv "$aside/linux-x64-vulkan" "$patched"' EXIT
fi
echo "== a swarm on lavapipe with the official Vulkan binary"
phase=$SECONDS
npx mocha --require ./out/test/isolatedGit.js --timeout 3600000 out/test/gpu/gpuVulkanSwarm.test.js
echo "   ($((SECONDS - phase)) s)"
if [ -n "$aside" ]; then mv "$aside/linux-x64-vulkan" "$patched"; fi
# Debian 12's glslc and headers are refused by the command's tool check (CI's runtime tier tests that); Debian 13's,
# unpacked by vulkanToolchain.sh, are given to the build through node-llama-cpp's cmake-option variables, in a
# subshell so that nothing after it depends on them (the runtime hides them from its load: src/runtime/buildVariables.ts).
(
  eval "$(bash scripts/vulkanToolchain.sh)"
  echo "== the Vulkan build's tool check passes with them and cmake configures with them (then cancelled)"
  phase=$SECONDS
  npx mocha --require ./out/test/isolatedGit.js --timeout 900000 out/test/gpu/vulkanBuildTools.test.js
  echo "   ($((SECONDS - phase)) s)"
  echo "== the patched runtime for Vulkan built by the user's command, swarmboard runtime build --gpu vulkan (cached by key)"
  phase=$SECONDS
  node dist/cli/main.js runtime build --gpu vulkan
  echo "   ($((SECONDS - phase)) s)"
)
echo "== the patched runtime on lavapipe: shared cells, the CPU build's greedy tokens"
phase=$SECONDS
npx mocha --timeout 3600000 out/test/gpu/patchedVulkan.test.js
echo "   ($((SECONDS - phase)) s)"
# node-llama-cpp's lastBuild.json names the Vulkan build now; the CPU build's install check reads it (a cache hit, 1 s).
node scripts/buildRuntime.mjs
echo "== checkGpuVulkan.sh: $((SECONDS - started)) s"
