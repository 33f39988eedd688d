// Eight agents free-running on a model with a real chat template and random weights
// (tiny-random-qwen2-chatml.gguf): whatever the model produces, the swarm ends within its budget in a
// consistent state. Every call is constrained by a grammar and validated again; what still fails is a tool
// error the agent reads, never a crash.
import assert from "node:assert/strict";
import path from "node:path";
import { SwarmBoard } from "../../src/core/swarmBoard";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import { denyAllApprover } from "../../src/workspace/approvals";
import { BoardLogFile } from "../../src/workspace/boardLog";
import { SwarmRepository } from "../../src/workspace/swarmRepository";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { SwarmSession, type SwarmSummary } from "../../src/worker/swarm/swarmSession";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { makeSampleRepo, ofType, testRecipe, type SampleRepo } from "./swarmFixtures";

const budgetMs = 60_000;

describe("eight free-running agents on a random-weight chat model", function () {
  let repo: SampleRepo;
  let summary: SwarmSummary;
  let elapsedMs = 0;
  const events: SwarmEvent[] = [];

  before(async function () {
    repo = makeSampleRepo();
    const started = Date.now();
    summary = await new SwarmSession(
      {
        swarmId: "free",
        goal: "Fix median for even-length lists",
        recipe: testRecipe(8, budgetMs),
        modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
        workspace: repo.workspace,
        stateDir: repo.stateDir,
        threads: 2,
        approver: denyAllApprover,
        policy: defaultPolicyRules,
        seed: 7,
      },
      (e) => events.push(e),
    ).run();
    elapsedMs = Date.now() - started;
  });

  it("ends within its wall-clock budget, without failing", () => {
    assert.notEqual(summary.outcome, "failed", summary.reason);
    assert.equal(summary.agents.filter((a) => a.role === "worker").length, 8);
    // The budget ends agents at their next step; one step (a capped call) may run past it.
    assert.ok(elapsedMs < budgetMs + 45_000, `ran ${elapsedMs} ms for a ${budgetMs} ms budget`);
    assert.equal(ofType(events, "swarm-ended").length, 1);
  });

  it("leaves no claim open", async () => {
    const store = await BoardLogFile.open(path.join(repo.stateDir, "board.jsonl"));
    try {
      const board = new SwarmBoard({ store, visibility: "shared", leaseMs: 60_000 });
      assert.deepEqual(board.claims.active(Date.now()), []);
    } finally {
      await store.close();
    }
  });

  it("accounts for every worktree: one for each agent that claimed or wrote, on that agent's branch", async () => {
    const swarmRepo = await SwarmRepository.open({ repoPath: repo.workspace, stateDir: repo.stateDir, swarm: "free" });
    const worktrees = await swarmRepo.agentWorktrees();
    const branches = new Map(summary.agents.map((a) => [a.id, a.branch]));
    // Agents that never claimed nor wrote read the shared view and have no worktree (nor a branch) of their own.
    const withBranch = summary.agents.filter((a) => a.branch !== undefined).map((a) => a.branch);
    assert.deepEqual(worktrees.map((w) => w.branch).sort(), [...new Set(withBranch)].sort());
    for (const wt of worktrees) assert.equal(branches.get(wt.agent), wt.branch, `worktree of ${wt.agent}`);
  });

  it("answers every call with one result, and every malformed call with a tool error", () => {
    const calls = ofType(events, "tool-call");
    const results = new Map(ofType(events, "tool-result").map((r) => [r.callId, r]));
    assert.ok(calls.length >= 8, `the agents made calls (${calls.length})`);
    for (const call of calls) {
      const result = results.get(call.callId);
      assert.ok(result, `call ${call.callId} (${call.tool}) has a result`);
      if (call.tool === "(malformed)") assert.equal(result.ok, false, "a malformed call is a tool error");
      if (!result.ok)
        assert.match(
          result.summary,
          /^[a-z-]+[:]|^not run|^release:|^kv-full/,
          `a tool error says what happened: ${result.summary}`,
        );
    }
  });
});
