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
import { defaultPolicyRules } from "../../src/worker/defaultPolicy";
import { SwarmSession } from "../../src/worker/swarmSession";
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

async function runSwarm(repo: SampleRepo, n: number, goal: string, calls: ScriptedCall[]): Promise<SwarmRun> {
  const stateDir = path.join(repo.root, `state-${n}`);
  const events: SwarmEvent[] = [];
  const summary = await new SwarmSession(
    {
      swarmId: `memory-${n}`,
      goal,
      recipe: research(),
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
});
