// Done-when (issue 30): a sandboxed run whose test command exits 127 (its runner is missing) refuses the merge
// with "tests could not run", on the real runtime with every call forced (the tiny ChatML test model): the agent
// commits and calls merge_progress, the refusal is on the board and in the tool's answer, and the integration
// branch did not move.
import assert from "node:assert/strict";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import { denyAllApprover } from "../../src/workspace/approvals";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { SwarmSession, type SwarmSummary } from "../../src/worker/swarm/swarmSession";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { removeDir } from "../unit/workspace/gitFixture";
import { git, makeSampleRepo, ofType, testRecipe, type SampleRepo } from "./swarmFixtures";

const testCommand = "swarmboard-no-such-test-runner --run";

describe("a merge whose test command cannot run (exit 127) is refused (real runtime, forced tokens)", function () {
  // One thread: on a machine shared with other work, more threads make decoding many times slower (FACTS).
  this.timeout(20 * 60_000);
  let repo: SampleRepo;
  let summary: SwarmSummary;
  let start = "";
  const events: SwarmEvent[] = [];

  before(async function () {
    repo = makeSampleRepo();
    const session = new SwarmSession(
      {
        swarmId: "norunner",
        goal: "Add a notes file",
        recipe: { ...testRecipe(1), testCommand },
        modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
        workspace: repo.workspace,
        stateDir: repo.stateDir,
        threads: 1,
        approver: denyAllApprover,
        // Allowed outright, so the merge verifier runs it in the sandbox (a command that asks is no verdict).
        policy: { ...defaultPolicyRules, allow: [...defaultPolicyRules.allow, testCommand] },
        script: {
          agents: {
            "agent-1": [
              { tool: "write_file", args: { path: "NOTES.md", content: "notes\n" } },
              { tool: "commit", args: { message: "Add notes" } },
              { tool: "merge_progress", args: {} },
              { tool: "finish", args: { summary: "could not merge" } },
            ],
            synthesist: [{ tool: "write_report", args: { title: "Report", body: "not merged." } }],
          },
        },
      },
      (e) => {
        events.push(e);
        // The integration branch as the swarm made it, before any merge.
        if (start === "" && e.type === "tool-result")
          start = git(repo.workspace, "rev-parse", "swarmboard/norunner/main");
      },
    );
    summary = await session.run();
  });
  after(() => removeDir(repo.root));

  it("refuses the merge with 'tests could not run', on the board and to the agent, and the branch did not move", () => {
    assert.equal(summary.outcome, "completed", summary.reason);
    const results = ofType(events, "tool-result").filter((r) => r.agentId === "agent-1");
    const merge = results.find((r) => r.summary.startsWith("merge:"));
    assert.equal(
      merge?.summary,
      "merge: refused",
      JSON.stringify(ofType(events, "board-entry").map((e) => e.entry.text)),
    );
    const patches = ofType(events, "board-entry")
      .map((e) => e.entry)
      .filter((e) => e.kind === "PATCH_SUMMARY");
    assert.equal(patches.length, 1, JSON.stringify(patches));
    assert.match(patches[0]?.text ?? "", /^refused to merge swarmboard\/norunner\/agent-1 \(tests could-not-run\)/);
    assert.match(patches[0]?.text ?? "", new RegExp(`"${testCommand}" on your tree: tests could not run: `));
    assert.doesNotMatch(patches[0]?.text ?? "", /tests passed/);
    assert.notEqual(start, "");
    assert.equal(git(repo.workspace, "rev-parse", "swarmboard/norunner/main"), start, "the integration branch moved");
    const moves = git(repo.workspace, "reflog", "show", "--format=%gs", "swarmboard/norunner/main").split("\n");
    assert.equal(moves.filter((m) => m.startsWith("swarmboard: merge")).length, 0, moves.join("\n"));
  });
});
