#!/usr/bin/env bash
# The main job on a fresh machine: set up, build, and run a real swarm on a copy of examples/sample-workspace
# (a tiny project with a failing test and a TODO). The model is $SWARMBOARD_MODEL; without it, the small
# random-weight ChatML test model of ../shared/models (it exercises everything but writes nonsense: pull a
# real one with `node dist/cli/main.js model pull hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M`).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

bash scripts/setup.sh
npm run build

model="${SWARMBOARD_MODEL:-$root/../shared/models/tiny-random-qwen2-chatml.gguf}"
if [ ! -f "$model" ]; then
  echo "No model at $model." >&2
  echo "Pull one: node dist/cli/main.js model pull hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M, then SWARMBOARD_MODEL=<path> $0" >&2
  exit 2
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/swarmboard-demo-XXXXXX")"
cp -r examples/sample-workspace "$work/sample"
git -C "$work/sample" init -q -b main
git -C "$work/sample" add -A
git -C "$work/sample" -c user.name=Demo -c user.email=demo@example.invalid commit -qm "sample project"

node dist/cli/main.js run \
  --goal "Make the failing median test pass, then add variance() with a test" \
  --recipe organization --agents "${AGENTS:-4}" \
  --model "$model" --workspace "$work/sample" --state-dir "$work/state" \
  --threads "${THREADS:-2}" --budget-ms "${BUDGET_MS:-120000}" "$@"
