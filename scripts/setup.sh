#!/usr/bin/env bash
# Everything Swarmboard needs on a fresh Debian 12 machine with Node 20, idempotent:
#   apt: compilers for the patched node-llama-cpp build, git, bubblewrap (the command sandbox);
#   with --host-tests (everything `npm test` needs) also chromium + the code-server dependencies, and qemu-user +
#   unzip for the test that runs the packaged VSIX on emulated older CPUs (test/runtime/packagedRuntime.test.ts),
#   and Debian 12's glslc, libvulkan-dev and spirv-headers (a few MB) for the test that the Vulkan runtime build is
#   refused with them before it compiles (test/runtime/runtimeBuildVulkanRefused.test.ts);
#   npm ci (its postinstall applies patches/ and builds node-llama-cpp with a unified KV cache, portable: every
#   CPU variant, unless SWARMBOARD_RUNTIME_BUILD=native; cached outside the clone by key); with --host-tests,
#   llama-server (the remote engine's tests run it on loopback; cached outside the clone by key) and
#   code-server 4.100.3 for the real extension-host tests.
# With --host-tests, code-server installs beside npm ci (both mostly download). With --server-in-background too
# (CI), llama-server is built niced in the background and setup returns without it: the test tiers that need it
# wait for it (test/llamaServerReady.ts), so its compile runs beside lint, typecheck and the unit tier.
# Each phase's seconds are appended to $SWARMBOARD_PHASE_LOG when it is set (.ci/run prints them).
set -euo pipefail
cd "$(dirname "$0")/.."

host_tests=false
server_in_background=false
for arg in "$@"; do
  case "$arg" in
    --host-tests) host_tests=true ;;
    --server-in-background) server_in_background=true ;;
    *) echo "setup.sh: unknown option $arg (use --host-tests, --server-in-background)" >&2; exit 2 ;;
  esac
done

phase_log="${SWARMBOARD_PHASE_LOG:-/dev/null}"
phase_started=$SECONDS
phase_done() { echo "$1 $((SECONDS - phase_started))" >>"$phase_log"; phase_started=$SECONDS; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

packages=(cmake g++ make python3 git ca-certificates bubblewrap)
$host_tests && packages+=(chromium libkrb5-dev ripgrep qemu-user unzip glslc libvulkan-dev spirv-headers)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== apt: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -q
  as_root apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
phase_done "apt"

code_server_pid=""
code_server_log="${TMPDIR:-/tmp}/swarmboard-code-server-install.log"
if $host_tests; then
  echo "== code-server 4.100.3 for the real extension-host tests, beside npm ci (log: $code_server_log)"
  bash scripts/installCodeServer.sh >"$code_server_log" 2>&1 &
  code_server_pid=$!
fi

echo "== npm ci (applies patches/, builds node-llama-cpp with kvUnified or reuses the cached build)"
npm ci --no-audit --no-fund
phase_done "npm-ci-and-runtime-build"

if [ -n "$code_server_pid" ]; then
  if ! wait "$code_server_pid"; then
    tail -n 40 "$code_server_log" >&2
    echo "setup.sh: the code-server install failed (whole log: $code_server_log)" >&2
    exit 1
  fi
  tail -n 3 "$code_server_log"
  phase_done "code-server-wait"
fi

if $host_tests; then
  if $server_in_background && ! node scripts/buildLlamaServer.mjs --print-path >/dev/null 2>&1; then
    server_log="${TMPDIR:-/tmp}/swarmboard-llama-server-build.log"
    echo "== llama-server: building in the background, niced (log: $server_log); the runtime and swarm tiers wait for it"
    nohup nice -n 15 node scripts/buildLlamaServer.mjs >"$server_log" 2>&1 </dev/null &
    # The build takes its lock at once; give it a moment so a tier that starts right away sees it.
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      node scripts/buildLlamaServer.mjs --print-path >/dev/null 2>&1 && break
      [ $? -eq 3 ] && break
      sleep 1
    done
  else
    echo "== llama-server from node-llama-cpp's bundled llama.cpp, for the remote engine's tests (cached by key)"
    node scripts/buildLlamaServer.mjs
  fi
  phase_done "llama-server"
fi
