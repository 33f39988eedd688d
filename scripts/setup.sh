#!/usr/bin/env bash
# Everything Swarmboard needs on a fresh Debian 12 machine with Node 20, idempotent:
#   apt: compilers for the patched node-llama-cpp build, git, bubblewrap (the command sandbox);
#   with --host-tests (everything `npm test` needs) also chromium + the code-server dependencies, and qemu-user +
#   unzip for the test that runs the packaged VSIX on emulated older CPUs (test/runtime/packagedRuntime.test.ts);
#   npm ci (its postinstall applies patches/ and builds node-llama-cpp with a unified KV cache, portable: every
#   CPU variant, unless SWARMBOARD_RUNTIME_BUILD=native; cached outside the clone by key); with --host-tests,
#   llama-server (the remote engine's tests run it on loopback; cached outside the clone by key) and
#   code-server 4.100.3 for the real extension-host tests.
set -euo pipefail
cd "$(dirname "$0")/.."

host_tests=false
[ "${1:-}" = "--host-tests" ] && host_tests=true

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

packages=(cmake g++ make python3 git ca-certificates bubblewrap)
$host_tests && packages+=(chromium libkrb5-dev ripgrep qemu-user unzip)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== apt: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -q
  as_root apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

echo "== npm ci (applies patches/, builds node-llama-cpp with kvUnified or reuses the cached build)"
npm ci --no-audit --no-fund

if $host_tests; then
  echo "== llama-server from node-llama-cpp's bundled llama.cpp, for the remote engine's tests (cached by key)"
  node scripts/buildLlamaServer.mjs
  echo "== code-server 4.100.3 for the real extension-host tests"
  bash scripts/installCodeServer.sh
fi
