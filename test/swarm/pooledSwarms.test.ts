// Swarms at once in one worker process (real runtime on the tiny ChatML test model, real git, scripted turns): a
// second swarm on the same repository, model and settings launched while the first runs joins the first's pool
// (the model loaded once, its trunk's shared start forked: only the rest decoded), both end with their boards, and a
// third that asks for more cells than the pool has left is refused with what runs and the numbers.
import assert from "node:assert/strict";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import { builtinRecipes } from "../../src/core/recipeCatalog";
import { denyAllApprover } from "../../src/workspace/approvals";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { processRuntime } from "../../src/worker/swarm/processRuntime";
import { SwarmRuntimeError } from "../../src/runtime/runtimeErrors";
import { SwarmSession } from "../../src/worker/swarm/swarmSession";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { makeSampleRepo, ofType, until, type SampleRepo } from "./swarmFixtures";

const posts = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ tool: "post_finding", args: { kind: "OBSERVED", text: `seen ${i + 1}` } }));

function launch(repo: SampleRepo, swarmId: string, findings: number, events: SwarmEvent[], poolShareCells?: number) {
  const recipe = builtinRecipes().get("research");
  assert.ok(recipe, "the research recipe exists");
  return new SwarmSession(
    {
      swarmId,
      goal: "Read the stats module",
      recipe,
      agents: 1,
      modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
      workspace: repo.workspace,
      stateDir: `${repo.stateDir}-${swarmId}`,
      threads: 1,
      kvCells: 8192,
      ...(poolShareCells === undefined ? {} : { poolShareCells }),
      script: {
        agents: {
          "agent-1": [...posts(findings), { tool: "finish", args: { summary: "read it" } }],
          synthesist: [{ tool: "finish", args: { summary: "nothing to add" } }],
        },
      },
      approver: denyAllApprover,
      policy: defaultPolicyRules,
    },
    (e) => events.push(e),
  ).run();
}

describe("swarms at once on one pool in one worker", function () {
  before(() => processRuntime.dropKeptContext());
  after(() => processRuntime.dropKeptContext());

  it("runs a second swarm on the first's pool and refuses a third that does not fit", async () => {
    const repo = makeSampleRepo();
    const loadsBefore = processRuntime.modelLoadCount();
    const [a, b, c]: SwarmEvent[][] = [[], [], []];
    const first = launch(repo, "pool-a", 40, a);
    await until(() => ofType(a, "board-entry").length > 0, "the first swarm's first finding");
    const second = launch(repo, "pool-b", 12, b);
    await until(() => ofType(b, "swarm-started").length > 0, "the second swarm's start");
    assert.equal(ofType(a, "swarm-ended").length, 0, "the first swarm still runs when the second starts");
    // The set-up refuses it before anything runs (a worker's launch reports it as the swarm's failed start).
    await assert.rejects(launch(repo, "pool-c", 1, c, 50_000_000), (error: unknown) => {
      assert.ok(error instanceof SwarmRuntimeError && error.code === "pool-full", String(error));
      assert.match(error.message, /does not fit beside the 2 running on this model's pool: it needs 50,000,000 KV/);
      assert.match(error.message, /the pool has [\d,]+ of 8,192 cells and \d+ of \d+ sequences free/);
      assert.match(
        error.message,
        // Each: what it wrote, what its agents were promised at fork, and (with a cap) what its cap keeps.
        /Running: pool-a \([\d,]+ cells written, [\d,]+ promised to its agents(, [\d,]+ more kept for its cap)?; 5 sequences\); pool-b \([\d,]+ cells written, [\d,]+ promised to its agents(, [\d,]+ more kept for its cap)?; 5 sequences\)/,
      );
      return true;
    });
    const summaries = await Promise.all([first, second]);

    const startB = ofType(b, "swarm-started")[0];
    assert.ok(startB, "the second swarm started");
    const reused = startB.trunkReusedTokens ?? 0;
    assert.ok(reused >= startB.trunkTokens * 0.5, `the second forked ${reused} of ${startB.trunkTokens} trunk tokens`);
    assert.deepEqual(
      summaries.map((s) => s.outcome),
      ["completed", "completed"],
    );
    assert.ok(ofType(b, "board-entry").length >= 12, "the second swarm's board has its findings");
    assert.ok(ofType(a, "board-entry").length >= 40, "the first swarm's board has its findings");
    assert.ok(processRuntime.modelLoadCount() - loadsBefore <= 1, "the model is loaded once for the three");
  });
});
