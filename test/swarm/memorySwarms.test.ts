// Memory across swarms on the real runtime (the tiny ChatML test model, forced tokens) and a real repository:
// swarm 1 checks a fact about src/stats.js and posts it; swarm 2 on the same repository starts with that fact in
// its trunk, listed by id with its provenance; then the user changes src/stats.js, and swarm 3 finds the memory
// stale, leaves it out of its trunk and says so.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { builtinRecipes } from "../../src/core/recipeCatalog";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import type { ScriptedCall } from "../../src/protocol/turnScript";
import { denyAllApprover } from "../../src/workspace/approvals";
import { RepositoryMemory } from "../../src/workspace/repositoryMemory";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { SwarmSession, type SwarmSummary } from "../../src/worker/swarm/swarmSession";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { git, makeSampleRepo, ofType, type SampleRepo } from "./swarmFixtures";

const fact = "median() sorts a copy of its input as strings, so [10, 9, 2] has median 2 (checked by reading it)";

function research() {
  const recipe = builtinRecipes().get("research");
  if (recipe === undefined) throw new Error("the research recipe is missing");
  return recipe;
}

interface SwarmRun {
  readonly trunk: string;
  readonly events: SwarmEvent[];
  readonly record: { carried: string[]; stale: Array<{ id: string; changed: string[] }>; remembered?: string[] };
}

async function runSwarm(
  repo: SampleRepo,
  n: number,
  goal: string,
  calls: ScriptedCall[],
  memory = true,
): Promise<SwarmRun & { summary: SwarmSummary }> {
  const recipe = research();
  const stateDir = path.join(repo.root, `state-${n}`);
  const events: SwarmEvent[] = [];
  const summary = await new SwarmSession(
    {
      swarmId: `memory-${n}`,
      goal,
      // budgets.memoryTokens 0 turns memory off: the same swarm without it.
      recipe: memory ? recipe : { ...recipe, budgets: { ...recipe.budgets, memoryTokens: 0 } },
      agents: 1,
      modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
      workspace: repo.workspace,
      stateDir,
      threads: 1,
      kvCells: 8192,
      script: {
        agents: {
          "agent-1": [...calls, { tool: "finish", args: { summary: "done" } }],
          synthesist: [{ tool: "finish", args: { summary: "nothing to add" } }],
        },
      },
      approver: denyAllApprover,
      policy: defaultPolicyRules,
    },
    (e) => events.push(e),
  ).run();
  assert.notEqual(summary.outcome, "failed", summary.reason);
  return {
    summary,
    trunk: readFileSync(path.join(stateDir, "trunk.txt"), "utf8"),
    events,
    record: JSON.parse(readFileSync(path.join(stateDir, "memory.json"), "utf8")),
  };
}

const boardTexts = (run: SwarmRun) => ofType(run.events, "board-entry").map((e) => e.entry.text);

describe("memory across swarms on one repository", function () {
  it("carries a verified fact into the next swarm's trunk, and leaves it out once its file changed", async () => {
    const repo = makeSampleRepo();
    const postFact = {
      tool: "post_finding",
      args: { kind: "FACT", text: fact, refs: [{ path: "src/stats.js", line: 9 }] },
    };
    const observed = { tool: "post_finding", args: { kind: "OBSERVED", text: "median looks odd for even lists" } };
    const first = await runSwarm(repo, 1, "Learn how the stats helpers behave", [postFact, observed]);
    assert.ok(!first.trunk.includes("# Memory"), "the first swarm has nothing to remember");
    const store = await RepositoryMemory.forRepository(repo.workspace);
    const { memories } = await store.read();
    assert.equal(memories.length, 1, "only the FACT is remembered, not the OBSERVED");
    const [memory] = memories;
    const statsBlob = git(repo.workspace, "rev-parse", "HEAD:src/stats.js");
    assert.deepEqual(
      { ...memory, rememberedAt: 0, postedAt: 0 },
      {
        ...memory,
        rememberedAt: 0,
        postedAt: 0,
        kind: "FACT",
        text: fact,
        files: [{ path: "src/stats.js", blob: statsBlob }],
        swarmId: "memory-1",
        agent: "agent-1",
        goal: "Learn how the stats helpers behave",
        commit: git(repo.workspace, "rev-parse", "HEAD"),
      },
    );
    assert.deepEqual(first.record.remembered, [memory!.id]);

    const second = await runSwarm(repo, 2, "Fix median() in the stats module for even-length lists", []);
    const line = `- [${memory!.id}] FACT from swarm memory-1, agent agent-1, files src/stats.js@${statsBlob.slice(0, 7)} (at src/stats.js:9): ${fact}`;
    assert.ok(second.trunk.includes(`# Memory\n`), second.trunk.slice(-800));
    assert.ok(second.trunk.includes(line), "the trunk lists the memory with its id and provenance");
    assert.deepEqual(second.record.carried, [memory!.id]);
    assert.ok(
      boardTexts(second).some((t) =>
        t.startsWith(`The trunk carries 1 memories of earlier swarms on this repository (${memory!.id})`),
      ),
      "the board says which memories the trunk carries",
    );

    writeFileSync(
      path.join(repo.workspace, "src/stats.js"),
      readFileSync(path.join(repo.workspace, "src/stats.js"), "utf8").replace(
        "[...values].sort()",
        "[...values].sort((a, b) => a - b)",
      ),
    );
    git(
      repo.workspace,
      "-c",
      "user.name=User",
      "-c",
      "user.email=user@example.invalid",
      "commit",
      "-qam",
      "sort numbers",
    );
    const third = await runSwarm(repo, 3, "Fix median() in the stats module for even-length lists", []);
    assert.ok(!third.trunk.includes(memory!.id), "a stale memory is not offered");
    assert.ok(
      third.trunk.includes(
        "No finding of earlier swarms on this repository is carried.\nLeft out: 1 stale (their files changed since).",
      ),
      third.trunk.slice(-800),
    );
    assert.deepEqual(third.record.carried, []);
    assert.deepEqual(third.record.stale, [{ id: memory!.id, changed: ["src/stats.js"] }]);
    assert.ok(boardTexts(third).some((t) => t.includes("1 stale (their files changed since) were left out.")));
  });

  // Forced trajectories cannot show that an agent with the fact needs fewer steps: the scripts fix the steps. What
  // they measure is the fact's cost to the agent's token budget: its lines in the trunk, against reading the file.
  it("charges an agent less of its token budget for the fact in its trunk than for reading the file (forced)", async () => {
    const repo = makeSampleRepo();
    const checked = {
      tool: "post_finding",
      args: { kind: "FACT", text: fact, refs: [{ path: "src/stats.js", line: 9 }] },
    };
    await runSwarm(repo, 1, "Learn how the stats helpers behave", [checked]);
    const goal = "Fix median() in the stats module for even-length lists";
    const finding = { tool: "post_finding", args: { kind: "OBSERVED", text: "median must sort numerically" } };
    const read = { tool: "read_file", args: { path: "src/stats.js" } };
    // The same first finding with the fact in the trunk and without it; and, without it, after reading the file.
    const withMemory = await runSwarm(repo, 2, goal, [finding]);
    const withoutSameCalls = await runSwarm(repo, 3, goal, [finding], false);
    const withoutReading = await runSwarm(repo, 4, goal, [read, finding], false);
    assert.ok(withMemory.trunk.includes(fact), "the first trunk carries the fact");
    for (const run of [withoutSameCalls, withoutReading]) assert.ok(!run.trunk.includes(fact), "memory off");
    const trunkTokens = (run: SwarmRun) => ofType(run.events, "swarm-started")[0]!.trunkTokens;
    const firstFinding = (run: SwarmRun) => {
      const calls = ofType(run.events, "tool-call").filter((e) => e.agentId === "agent-1");
      const at = calls.findIndex((c) => c.tool === "post_finding");
      assert.ok(at >= 0, "agent-1 posted its finding");
      const result = ofType(run.events, "tool-result").find((r) => r.callId === calls[at]!.callId);
      // Every result says what is left; its tokens are the budget minus the agent's private cells.
      const tokensLeft = Number(/(\d+) tokens/.exec(result?.left ?? "")?.[1]);
      assert.ok(Number.isFinite(tokensLeft), `a budget line on the result: ${result?.left}`);
      return research().budgets.tokensPerAgent - tokensLeft;
    };
    const [a, same, reading] = [withMemory, withoutSameCalls, withoutReading].map(firstFinding);
    const factTokens = trunkTokens(withMemory) - trunkTokens(withoutSameCalls);
    console.log(
      `      the fact's trunk lines: ${factTokens} tokens; the agent's budget spent by its first finding: ${a} with the ` +
        `fact, ${same} without (same calls), ${reading} reading the file instead`,
    );
    assert.ok(factTokens > 0, "the fact is in the trunk");
    // At present the agent's budget is charged all of the fact's trunk lines (shared cells); a copy of the fact in
    // the agent's own context on top of them would fail here.
    assert.ok(a - same <= factTokens, `the fact costs the agent at most its trunk lines: ${a - same} of ${factTokens}`);
    assert.ok(a < reading, `the fact costs less than reading the file: ${a} with the fact, ${reading} reading`);
  });
});
