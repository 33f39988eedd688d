// The fix-failing-tests swarm on a real JavaScript project whose `npm test` runs mocha from the user's installed
// node_modules, on the real runtime with every call forced (the tiny ChatML test model): one task per really failing test, the
// agent's `npm test` runs in its worktree, a merge that breaks a passing test is refused with the test named and
// the integration branch does not move, the fixed merge is published with its counts on the board, and every
// tool result carries what the agent has left.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { stableHash } from "../../src/core/taskSources";
import { builtinRecipes } from "../../src/core/recipeCatalog";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import { denyAllApprover } from "../../src/workspace/approvals";
import { RepositoryMemory } from "../../src/workspace/repositoryMemory";
import { removeDir, tempDir } from "../unit/workspace/gitFixture";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { SwarmSession, type SwarmSummary } from "../../src/worker/swarm/swarmSession";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { failingTests, makeMochaProject, mathSource } from "../unit/workspace/mochaProject";
import { git, ofType } from "./swarmFixtures";

const taskId = (title: string) => `test-${stableHash(`test:${title}`)}`;
const addBroken = mathSource.replace("(a, b) => a + b;\nexports.mul", "(a, b) => a - b;\nexports.mul");
const mulFixed = mathSource.replace("exports.mul = (a, b) => a + b;", "exports.mul = (a, b) => a * b;");

describe("the fix-failing-tests swarm on a mocha project, verified merges (real runtime, forced tokens)", function () {
  // One thread: on a machine shared with other work, more threads make decoding many times slower (FACTS).
  this.timeout(20 * 60_000);
  let project = "";
  let stateDir = "";
  let summary: SwarmSummary;
  const events: SwarmEvent[] = [];

  before(async function () {
    project = makeMochaProject();
    stateDir = path.join(tempDir("verified-state"), "state");
    assert.notEqual(addBroken, mathSource);
    const session = new SwarmSession(
      {
        swarmId: "verified",
        goal: "",
        recipe: builtinRecipes().get("fix-failing-tests")!,
        agents: 1,
        modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
        workspace: project,
        stateDir,
        threads: 1,
        approver: denyAllApprover,
        policy: defaultPolicyRules,
        script: {
          agents: {
            "agent-1": [
              { tool: "run_command", args: { command: "npm test" } },
              { tool: "claim", args: { scope: { taskId: taskId("math multiplies") }, text: "fix mul" } },
              { tool: "write_file", args: { path: "src/math.js", content: addBroken } },
              { tool: "commit", args: { message: "Break add" } },
              { tool: "merge_progress", args: {} },
              { tool: "write_file", args: { path: "src/math.js", content: mulFixed } },
              { tool: "commit", args: { message: "Fix mul, keep add" } },
              { tool: "merge_progress", args: {} },
              { tool: "finish", args: { summary: "mul fixed and merged" } },
            ],
          },
        },
      },
      (e) => events.push(e),
    );
    summary = await session.run();
  });
  after(() => {
    removeDir(project);
    removeDir(path.dirname(stateDir));
  });

  const results = () => ofType(events, "tool-result").filter((r) => r.agentId === "agent-1");
  const patchSummaries = () =>
    ofType(events, "board-entry")
      .map((e) => e.entry)
      .filter((e) => e.kind === "PATCH_SUMMARY");

  it("opens one task per really failing test", () => {
    assert.equal(summary.outcome, "completed", summary.reason);
    const trunk = readFileSync(path.join(stateDir, "trunk.txt"), "utf8");
    // The task list, not the roster, whose seats name their first suggested task in the same form.
    const taskLines = trunk
      .split("\n")
      .filter((line) => !line.includes("first suggested task"))
      .join("\n");
    const listed = [...taskLines.matchAll(/\[(test-[0-9a-f]{8})\] failing test: ([^;\n]+)/g)].map((m) => [m[1], m[2]]);
    assert.deepEqual(
      listed,
      failingTests.map((t) => [taskId(t), t]),
    );
  });

  it("runs the agent's `npm test` in its worktree (mocha found, two failures)", () => {
    assert.equal(results()[0]?.summary, "ran (exit 2): npm test");
  });

  it("refuses the merge that breaks a passing test, names it, and leaves the integration branch where it was", () => {
    const merges = results().filter((r) => r.summary.startsWith("merge:"));
    assert.deepEqual(
      merges.map((r) => r.summary),
      ["merge: refused", "merge: merged"],
    );
    const [refused, merged] = patchSummaries();
    assert.match(refused?.text ?? "", /^refused to merge swarmboard\/verified\/agent-1 \(tests broke-tests\)/);
    assert.match(refused?.text ?? "", /fail now: math adds/);
    assert.match(
      merged?.text ?? "",
      /^merged swarmboard\/verified\/agent-1 \(tests passed\): "npm test": 2 passed, 1 failed/,
    );
    // The branch moved once, by the verified merge; the refused one never touched it.
    const moves = git(project, "reflog", "show", "--format=%gs", "swarmboard/verified/main").split("\n");
    assert.equal(moves.filter((m) => m.startsWith("swarmboard: merge")).length, 1, moves.join("\n"));
    assert.equal(git(project, "show", "swarmboard/verified/main:src/math.js") + "\n", mulFixed);
    assert.equal(readFileSync(path.join(project, "src/math.js"), "utf8"), mathSource, "the user's file is untouched");
  });

  it("gives every tool result the time, tokens and steps the agent has left", () => {
    assert.equal(results().length, 9);
    for (const r of results())
      assert.match(r.left ?? "", /^\d+m(\d+s)? until fan-in, \d+ tokens, \d+ steps$/, r.summary);
    const steps = results().map((r) => Number(/(\d+) steps/.exec(r.left ?? "")?.[1]));
    assert.deepEqual(
      steps.slice(1).map((s, i) => steps[i] - s),
      Array(8).fill(1),
      "one step fewer after each call",
    );
  });

  it("remembers the verified merge's summary for later swarms, not the refused one, with its file at the end", async () => {
    const { memories } = await (await RepositoryMemory.forRepository(project)).read();
    const patches = memories.filter((m) => m.kind === "PATCH_SUMMARY");
    assert.deepEqual(
      patches.map((m) => m.text),
      [patchSummaries()[1]?.text],
    );
    const end = git(project, "rev-parse", "swarmboard/verified/main");
    assert.deepEqual(patches[0]?.files, [
      { path: "src/math.js", blob: git(project, "rev-parse", "swarmboard/verified/main:src/math.js") },
    ]);
    assert.equal(patches[0]?.commit, end);
    assert.equal(patches[0]?.agent, "agent-1");
  });
});
