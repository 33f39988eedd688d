// Takeover on the real runtime with forced tokens (the tiny ChatML test model): agent-1 claims the goal, leaves a note, then
// repeats itself until the watchdog releases its claim; the task goes back to the pool and a fresh agent forked
// from the trunk takes it over with agent-1's notes, and the board shows the hand-over.
import assert from "node:assert/strict";
import type { BoardEntry } from "../../src/protocol/board";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import { denyAllApprover } from "../../src/workspace/approvals";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { SwarmSession, type SwarmSummary } from "../../src/worker/swarm/swarmSession";
import { gatherTasks } from "../../src/worker/swarm/workspaceTasks";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { makeSampleRepo, ofType, testRecipe } from "./swarmFixtures";

const goal = "Fix median for even-length lists";
const note = "median sorts as strings: sort() needs a numeric compare";

describe("takeover of a task the watchdog released (real runtime, forced tokens)", function () {
  // One thread: on a machine shared with other work, more threads make decoding many times slower (FACTS).
  this.timeout(20 * 60_000);
  let summary: SwarmSummary;
  let goalTask = "";
  const events: SwarmEvent[] = [];

  before(async function () {
    const repo = makeSampleRepo();
    const recipe = testRecipe(1);
    goalTask = (await gatherTasks(recipe, goal, repo.workspace))[0]!.id;
    const stuck = Array.from({ length: 6 }, () => ({ tool: "list_dir", args: { path: "." } }));
    const session = new SwarmSession(
      {
        swarmId: "takeover",
        goal,
        recipe,
        modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
        workspace: repo.workspace,
        stateDir: repo.stateDir,
        threads: 1,
        approver: denyAllApprover,
        policy: defaultPolicyRules,
        script: {
          agents: {
            "agent-1": [
              { tool: "claim", args: { scope: { taskId: goalTask }, text: "fix median" } },
              { tool: "post_finding", args: { kind: "OBSERVED", text: note } },
              ...stuck,
              { tool: "finish", args: { summary: "gave up" } },
            ],
            "agent-2": [
              { tool: "claim", args: { scope: { taskId: goalTask }, text: "taking over median" } },
              { tool: "post_finding", args: { kind: "FACT", text: "numeric compare fixes the order" } },
              { tool: "finish", args: { summary: "took over and finished" } },
            ],
            synthesist: [{ tool: "write_report", args: { title: "Report", body: "median taken over." } }],
          },
        },
      },
      (e) => events.push(e),
    );
    summary = await session.run();
  });

  const entries = (): BoardEntry[] => ofType(events, "board-entry").map((e) => e.entry);

  it("releases agent-1's claim by the watchdog, then a fresh agent takes the task over with its notes", () => {
    assert.equal(summary.outcome, "completed", summary.reason);
    assert.deepEqual(
      summary.agents.map((a) => a.id),
      ["agent-1", "agent-2", "synthesist-3"],
    );
    const released = entries().find((e) => e.kind === "RELEASE" && e.author === "agent-1");
    assert.match(released?.text ?? "", /^stalled: /);
    const handover = entries().find((e) => e.author === "swarmboard" && e.text.startsWith("hand-over:"));
    assert.ok(handover, "the board shows the hand-over");
    assert.equal(handover.scope.taskId, goalTask);
    assert.match(handover.text, new RegExp(`task ${goalTask} goes from agent-1 \\(released by the watchdog: `));
    assert.match(
      handover.text,
      /to agent-2, with its notes: claimed it: fix median \| OBSERVED: median sorts as strings/,
    );
    const added = ofType(events, "agent-added").find((e) => e.agent.id === "agent-2");
    assert.ok(added && added.agent.parent === undefined, "agent-2 is forked from the trunk, not from agent-1");
    const order = events.indexOf(ofType(events, "board-entry").find((e) => e.entry.id === handover.id)!);
    assert.ok(order < events.indexOf(added), "the hand-over is posted before the new agent starts");
    const claim = entries().find((e) => e.kind === "CLAIM" && e.author === "agent-2");
    assert.equal(claim?.scope.taskId, goalTask, "agent-2 claims the same task");
  });

  it("does not hand over a task that was finished", () => {
    const handovers = entries().filter((e) => e.text.startsWith("hand-over:"));
    assert.equal(handovers.length, 1, "agent-2 finished it: no second hand-over");
  });
});
