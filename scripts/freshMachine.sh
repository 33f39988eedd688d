#!/usr/bin/env bash
# Runs CI as a new machine would, so anyone can check a change to set-up before it lands: a fresh clone of this
# checkout's HEAD (committed work only) with ../shared beside it, an empty HOME (no ~/.gitconfig, no git identity,
# no ~/.cache build caches, no npm config or cache), an empty TMPDIR, CI=true, and nothing else of this shell's
# environment but PATH and the machine's certificate and pyenv settings. Prints the log's path; exits with CI's status.
#   bash scripts/freshMachine.sh            # a cold run: every native build from scratch (about 45 minutes)
#   KEEP=1 bash scripts/freshMachine.sh     # keep the throwaway folder (clone, HOME, TMPDIR) for a look after
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
shared="$(cd "$root/../shared" && pwd)" || { echo "freshMachine: no ../shared beside $root" >&2; exit 2; }

work="$(mktemp -d "${FRESH_MACHINE_ROOT:-/tmp}/swarmboard-fresh-XXXXXX")"
mkdir -p "$work/home" "$work/tmp"
git clone -q "$root" "$work/main"
ln -s "$shared" "$work/shared"
log="$work/ci.log"
echo "freshMachine: clone of $(git -C "$root" rev-parse --short HEAD) in $work/main, HOME=$work/home; log: $log"

status=0
env -i \
  PATH="$PATH" \
  ${PYENV_ROOT:+PYENV_ROOT="$PYENV_ROOT"} \
  ${NODE_EXTRA_CA_CERTS:+NODE_EXTRA_CA_CERTS="$NODE_EXTRA_CA_CERTS"} \
  LANG=C.UTF-8 \
  HOME="$work/home" \
  TMPDIR="$work/tmp" \
  CI=true \
  bash "$work/main/.ci/run" >"$log" 2>&1 || status=$?

tail -n 40 "$log"
echo "freshMachine: CI exited $status; log: $log"
if [ -e "$work/home/.gitconfig" ]; then echo "freshMachine: CI wrote a global git config ($work/home/.gitconfig)"; fi
if [ -z "${KEEP:-}" ]; then
  kept="${TMPDIR:-/tmp}/swarmboard-fresh-ci-$(date +%Y%m%d-%H%M%S).log"
  cp "$log" "$kept"
  rm -rf "$work"
  echo "freshMachine: log kept at $kept"
fi
exit "$status"
