#!/usr/bin/env bash
# The main job on a fresh machine: set up, build, and run a real swarm on a copy of examples/sample-workspace
# (a tiny project with a failing test and a TODO). The model is $SWARMBOARD_MODEL; without it, the Qwen2.5-Instruct
# family test model (Qwen2.5's real tokenizer and chat template on tiny random weights, made offline by
# scripts/makeFamilyModels.mjs: it exercises everything in Qwen's own tool syntax but writes nonsense; pull a real
# one with `node dist/cli/main.js model pull qwen2.5-1.5b`, or list the catalogue with `model pull --list`).
# A model without tool calling in its chat template (a story model, a plain ChatML template) is refused.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

bash scripts/setup.sh
npm run build

model="${SWARMBOARD_MODEL:-}"
if [ -z "$model" ]; then
  npm run compile:tests >/dev/null
  model="$(node scripts/makeFamilyModels.mjs | sed -n 's/^Qwen2\.5-Instruct: //p')"
fi
if [ ! -f "$model" ]; then
  echo "No model at $model." >&2
  echo "Pull one: node dist/cli/main.js model pull qwen2.5-1.5b, then SWARMBOARD_MODEL=<path> $0" >&2
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
