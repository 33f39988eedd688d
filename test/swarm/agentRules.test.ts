// A swarm on a repository with an AGENTS.md: the file's text is in the trunk every agent forks from (the
// trunk.txt the run keeps, compared with a golden file), the swarm-started event lists it for the views, and
// with the setting off the trunk has no conventions. Real runtime (the tiny ChatML test model), real git, scripted turns.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import { denyAllApprover } from "../../src/workspace/approvals";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { SwarmSession } from "../../src/worker/swarm/swarmSession";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { builtinRecipes } from "../../src/core/recipeCatalog";
import { git, makeSampleRepo, ofType, repoRoot } from "./swarmFixtures";

const golden = path.join(repoRoot(), "test/fixtures/board/trunk-swarm-conventions.golden.txt");
const agentsMd =
  "# How we work here\n\n- Run `npm test` before you merge.\n- Keep src/stats.js free of dependencies.\n";

function research() {
  const recipe = builtinRecipes().get("research");
  if (recipe === undefined) throw new Error("the research recipe is missing");
  return recipe;
}

async function runSwarm(agentRules: boolean): Promise<{ trunk: string; events: SwarmEvent[] }> {
  const repo = makeSampleRepo();
  writeFileSync(path.join(repo.workspace, "AGENTS.md"), agentsMd);
  git(repo.workspace, "add", "AGENTS.md");
  git(repo.workspace, "-c", "user.name=User", "-c", "user.email=user@example.invalid", "commit", "-qm", "rules");
  const events: SwarmEvent[] = [];
  const summary = await new SwarmSession(
    {
      swarmId: "rules",
      goal: "Read the stats module",
      recipe: research(),
      agents: 1,
      modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
      workspace: repo.workspace,
      stateDir: repo.stateDir,
      threads: 1,
      // A small pool: the 32k-cell default is slower to set up on a busy machine.
      kvCells: 8192,
      script: {
        agents: {
          "agent-1": [{ tool: "finish", args: { summary: "read it" } }],
          synthesist: [{ tool: "finish", args: { summary: "nothing to add" } }],
        },
      },
      approver: denyAllApprover,
      policy: defaultPolicyRules,
      agentRules,
    },
    (e) => events.push(e),
  ).run();
  assert.notEqual(summary.outcome, "failed", summary.reason);
  return { trunk: readFileSync(path.join(repo.stateDir, "trunk.txt"), "utf8"), events };
}

describe("agent rules in a real swarm's trunk", function () {
  it("puts the repository's AGENTS.md into the trunk and lists it in the swarm-started event", async () => {
    const { trunk, events } = await runSwarm(true);
    const at = trunk.indexOf("Agent rules from the repository");
    assert.ok(at > 0, "the workspace summary lists the rules");
    // The conventions end the part every swarm on the repository shares; this swarm's roster comes next.
    const end = trunk.indexOf("# Roster\n");
    assert.ok(end > at, "the roster comes after the conventions");
    assert.equal(trunk.slice(at, end), `${readFileSync(golden, "utf8")}\n`, "a blank line ends the section");
    const [started] = ofType(events, "swarm-started");
    assert.deepEqual(started?.rules, [
      { name: "AGENTS.md", path: "AGENTS.md", chars: agentsMd.trim().length, cut: false },
    ]);
  });

  it("leaves the rules out when the setting is off", async () => {
    const { trunk, events } = await runSwarm(false);
    assert.ok(!trunk.includes("# Conventions") && !trunk.includes("Run `npm test` before you merge"), trunk);
    assert.deepEqual(ofType(events, "swarm-started")[0]?.rules, []);
  });
});
