#!/usr/bin/env bash
# Installs code-server 4.100.3 (the real VS Code extension host of test/host) into test/host/code-server,
# offline-friendly and idempotent: a second run with the same lockfile does nothing.
#
# Needs (apt, installed by .ci/run): chromium libkrb5-dev ripgrep, and a C++ toolchain for node-gyp
# (g++ make python3, e.g. build-essential python3).
#   - ripgrep: @vscode/ripgrep's postinstall downloads rg from GitHub unless its cache already holds the
#     archive; we seed that cache with Debian's rg so nothing is fetched from GitHub.
#   - libkrb5-dev: code-server's bundled VS Code builds the `kerberos` native module at install.
#   - chromium: the browser playwright-core drives in test/host/runHostTests.ts.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$root/test/host/code-server"
stamp="$dir/node_modules/.swarmboard-installed"

fail() { echo "installCodeServer: $*" >&2; exit 1; }

for tool in rg npm node tar g++ make python3; do
  command -v "$tool" >/dev/null || fail "'$tool' is missing. Install it first (apt-get install -y chromium libkrb5-dev ripgrep build-essential python3; Node 20)."
done
[ -f "$dir/package-lock.json" ] || fail "$dir/package-lock.json is missing: the host test's code-server must be installed from its lockfile."

lock_hash="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$lock_hash" ] && [ -x "$dir/node_modules/.bin/code-server" ]; then
  echo "installCodeServer: code-server already installed from this lockfile ($dir)"
  exit 0
fi

# Seed @vscode/ripgrep's download cache (it looks in os.tmpdir(), i.e. $TMPDIR or /tmp).
tmp="${TMPDIR:-/tmp}"
cache="$tmp/vscode-ripgrep-cache-1.15.11"
archive="$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
if [ ! -s "$archive" ]; then
  mkdir -p "$cache"
  staging="$(mktemp -d)"
  cp "$(command -v rg)" "$staging/rg"
  tar -czf "$archive" -C "$staging" rg
  rm -rf "$staging"
  echo "installCodeServer: seeded $archive from $(command -v rg)"
fi

# code-server's postinstall builds native modules (kerberos, node-pty) with node-gyp, which otherwise
# downloads Node's headers from nodejs.org: point it at the headers installed with Node (Debian/NodeSource).
node_prefix="$(dirname "$(dirname "$(command -v node)")")"
if [ -z "${npm_config_nodedir:-}" ] && [ -f "$node_prefix/include/node/node.h" ]; then
  export npm_config_nodedir="$node_prefix"
fi

echo "installCodeServer: npm ci in $dir (about 2 minutes, 300 MB)"
(cd "$dir" && npm_config_unsafe_perm=true npm_config_yes=true npm ci --no-audit --no-fund)
[ -x "$dir/node_modules/.bin/code-server" ] || fail "npm ci finished but node_modules/.bin/code-server is missing."
echo "$lock_hash" > "$stamp"
echo "installCodeServer: done (code-server $(node -p "require('$dir/node_modules/code-server/package.json').version"))"
