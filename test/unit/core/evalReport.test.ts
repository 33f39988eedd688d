// The eval's arithmetic and its table: one run's counts read from its events, the same whole budget for every arm,
// totals per agent count, and the printed table with the reason of each unsolved run.
import assert from "node:assert/strict";
import { swarmRunMetrics } from "../../../src/core/evalMetrics";
import { evalRecipe } from "../../../src/core/evalRecipe";
import { evalArmTotals, formatEvalTable } from "../../../src/core/evalReport";
import { evalTaskManifestSchema, type EvalRun } from "../../../src/protocol/evalSuite";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";

const base = { swarmId: "s", time: 1 };
const result = (agentId: string, summary: string): SwarmEvent => ({
  ...base,
  type: "tool-result",
  agentId,
  callId: "c",
  ok: true,
  summary,
});
const patch = (text: string): SwarmEvent => ({
  ...base,
  type: "board-entry",
  entry: {
    id: text,
    kind: "PATCH_SUMMARY",
    author: "agent-1",
    time: 1,
    scope: { paths: [], globs: [] },
    text,
    refs: [],
  },
});
const stats = (usedCells: number) => ({ ...base, type: "kv-stats", stats: { usedCells } }) as unknown as SwarmEvent;

function run(over: Partial<EvalRun>): EvalRun {
  const counts = { wallMs: 1000, tokens: 100, kvCells: 50, merges: 1, conflicts: 0, refusedMerges: 0 };
  return {
    task: "t",
    kind: "bug",
    agents: 1,
    solved: true,
    outcome: "completed",
    ...counts,
    duplicateClaims: 0,
    ...over,
  };
}

describe("eval: what a run did, and the report", () => {
  it("counts merges, conflicts, merges refused for broken tests and duplicate claims, and the peak of KV cells", () => {
    const events = [
      stats(300),
      result("agent-1", "merge: merged"),
      result("agent-2", "merge: conflict"),
      result("agent-2", "merge: refused"),
      patch("refused to merge swarmboard/s/agent-2 (tests broke-tests): fail now: adds"),
      result("agent-2", "merge: refused"),
      result("agent-3", "claim refused: overlaps agent-1's claim agent-1-1: path src/a.js and path src/a.js ..."),
      result("agent-3", "claim refused: a claim must name a task, paths or globs"),
      stats(700),
      stats(400),
    ];
    assert.deepEqual(swarmRunMetrics(events, [120, 30, 5]), {
      tokens: 155,
      kvCells: 700,
      merges: 1,
      conflicts: 1,
      refusedMerges: 1,
      duplicateClaims: 1,
    });
  });

  it("gives every arm the same whole budget: N agents share the tokens and steps one agent gets", () => {
    const task = evalTaskManifestSchema.parse({
      kind: "bug",
      goal: "g",
      testCommand: "npm test",
      budgets: { tokens: 16_000, steps: 96, wallClockMs: 60_000 },
      trajectories: {},
    });
    const one = evalRecipe("task.json", task, 1);
    const four = evalRecipe("task.json", task, 4);
    assert.deepEqual([one.budgets.tokensPerAgent, four.budgets.tokensPerAgent * 4], [16_000, 16_000]);
    assert.deepEqual([one.budgets.steps, four.budgets.steps], [96, 24]);
    assert.deepEqual(
      [four.roles[0]?.count, four.testCommand, four.merge, four.synthesist],
      [4, "npm test", true, undefined],
    );
    assert.throws(() => evalRecipe("task.json", task, 100), /task\.json: budgets of 16000 tokens and 96 steps/);
  });

  it("totals each arm (sums, the most KV cells) and prints a row per run, a total per arm and why runs failed", () => {
    const runs = [
      run({ task: "a", agents: 1, wallMs: 2000, kvCells: 40 }),
      run({ task: "a", agents: 4, merges: 2, duplicateClaims: 1, kvCells: 90 }),
      run({ task: "b", agents: 1, solved: false, note: "hidden tests failed (exit 1): not ok 1 - adds", merges: 0 }),
      run({ task: "b", agents: 4, merges: 2, kvCells: 70, tokens: 300 }),
    ];
    const totals = evalArmTotals(runs, [1, 4]);
    assert.deepEqual(
      totals.map((t) => [t.agents, t.tasks, t.solved, t.wallMs, t.tokens, t.kvCells, t.merges, t.duplicateClaims]),
      [
        [1, 2, 1, 3000, 200, 50, 1, 0],
        [4, 2, 2, 2000, 400, 90, 4, 1],
      ],
    );
    const table = formatEvalTable({
      suite: "examples/eval",
      model: "m.gguf",
      forced: true,
      arms: [1, 4],
      runs,
      totals,
    });
    const lines = table.split("\n");
    assert.equal(lines[0], "swarmboard eval: examples/eval, model m.gguf, forced trajectories");
    assert.match(
      lines[1]!,
      /^task +kind +agents +solved +wall +tokens +KV cells +merges +conflicts +refused +dup claims$/,
    );
    assert.match(lines[4]!, /^b +bug +1 +NO +1\.0s +100 +50 +0 +0 +0 +0$/);
    assert.match(lines[6]!, /^total +2 tasks +1 +1\/2 +3\.0s +200 +50 +1 +0 +0 +0$/);
    assert.match(lines[7]!, /^total +2 tasks +4 +2\/2 +2\.0s +400 +90 +4 +0 +0 +1$/);
    assert.deepEqual(lines.slice(8, 11), [
      "",
      "unsolved:",
      "  b (1 agent): hidden tests failed (exit 1): not ok 1 - adds",
    ]);
  });
});
