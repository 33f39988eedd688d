// The trunk kept across swarms in one worker process (real runtime on the tiny ChatML test model, real git, scripted turns): the
// second swarm on the same repository, recipe and goal takes the first one's context and decodes only the part of
// its trunk that differs; the first, on a fresh worker, decodes it all.
import assert from "node:assert/strict";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import { builtinRecipes } from "../../src/core/recipeCatalog";
import { denyAllApprover } from "../../src/workspace/approvals";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { processRuntime } from "../../src/worker/swarm/processRuntime";
import { SwarmSession } from "../../src/worker/swarm/swarmSession";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { makeSampleRepo, ofType, type SampleRepo } from "./swarmFixtures";

async function runSwarm(repo: SampleRepo, swarmId: string, stateDir: string): Promise<SwarmEvent[]> {
  const recipe = builtinRecipes().get("research");
  assert.ok(recipe, "the research recipe exists");
  const events: SwarmEvent[] = [];
  const summary = await new SwarmSession(
    {
      swarmId,
      goal: "Read the stats module",
      recipe,
      agents: 1,
      modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
      workspace: repo.workspace,
      stateDir,
      threads: 1,
      kvCells: 8192,
      script: {
        agents: {
          "agent-1": [{ tool: "finish", args: { summary: "read it" } }],
          synthesist: [{ tool: "finish", args: { summary: "nothing to add" } }],
        },
      },
      approver: denyAllApprover,
      policy: defaultPolicyRules,
    },
    (e) => events.push(e),
  ).run();
  assert.notEqual(summary.outcome, "failed", summary.reason);
  return events;
}

describe("the trunk kept across swarms in one worker", function () {
  before(() => processRuntime.dropKeptContext());
  after(() => processRuntime.dropKeptContext());

  it("decodes the first trunk whole and only the changed part of the second", async () => {
    const repo = makeSampleRepo();
    const first = ofType(await runSwarm(repo, "kept-1", `${repo.stateDir}-1`), "swarm-started")[0];
    const second = ofType(await runSwarm(repo, "kept-2", `${repo.stateDir}-2`), "swarm-started")[0];
    assert.ok(first && second, "both swarms started");
    assert.equal(first.trunkReusedTokens, undefined, "nothing was kept before the first swarm");
    const reused = second.trunkReusedTokens ?? 0;
    assert.ok(
      reused >= second.trunkTokens * 0.5 && reused < second.trunkTokens,
      `the second swarm reused ${reused} of its ${second.trunkTokens} trunk tokens`,
    );
  });
});
