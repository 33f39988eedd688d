// A command the policy asks about becomes a prompt with the exact command, the agent and its folder; the
// user's deny reaches the agent as a tool error. Uses the shared scripted run (reviewSwarmRun.ts).
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { requestScreenshot } from "./automationMarkers";
import { swarmboard, waitFor } from "./hostApi";
import { askedCommand, sharedRun } from "./reviewSwarmRun";

describe("command approvals", function () {
  this.timeout(240_000);

  it("asks with the command, the agent and its worktree, and a deny reaches the agent as a tool error", async () => {
    const { hooks } = await swarmboard();
    const run = await sharedRun(hooks);
    const approvals = hooks.reviewSurfaces.approvals;
    const prompt = await waitFor(
      "the approval prompt for node --version",
      () => approvals.pending().find((p) => p.swarmId === run.swarmId),
      180_000,
    );
    assert.equal(prompt.command, askedCommand);
    assert.equal(prompt.agentId, "agent-2");
    assert.match(prompt.cwd, new RegExp(`${run.swarmId}[\\\\/]agent-2$`), "the agent's worktree is named");
    for (const part of [askedCommand, "agent-2", prompt.cwd])
      assert.ok(prompt.message.includes(part), `the prompt shows ${part}: ${prompt.message}`);
    if (vscode.env.uiKind === vscode.UIKind.Web) {
      // Not an assertion: lets the notification finish sliding in so the picture shows it whole.
      await new Promise((r) => setTimeout(r, 1500));
      await requestScreenshot("approval-prompt");
    }

    assert.equal(approvals.answer(prompt.requestId, "deny"), true);
    const result = await waitFor(
      "agent-2's tool result for the denied command",
      () =>
        hooks.reviewSurfaces.swarms
          .view(run.swarmId)
          ?.agents.find((a) => a.id === "agent-2")
          ?.lane.find((i) => i.kind === "result" && i.text.includes("Not approved")),
      60_000,
    );
    assert.equal(result.ok, false, "the denied command is a failed tool call");
    assert.match(result.text, /^not run: Not approved/);
    assert.equal(approvals.pending().length, 0, "the prompt is closed");
    assert.equal(hooks.reviewSurfaces.swarms.view(run.swarmId)?.approvals.length, 0, "the store has no open approval");
  });

  it("counts no answer in time as a deny: the prompt closes and says so", async () => {
    const { hooks } = await swarmboard();
    const run = await sharedRun(hooks);
    const approvals = hooks.reviewSurfaces.approvals;
    approvals.setTimeoutMs(1000);
    try {
      // A request the worker never sent: only the host's side of the timeout is exercised here (the worker
      // denies on its own after its 5 minutes, see test/unit/workspace/commandRunner.test.ts).
      const requestId = `late-${Date.now()}`;
      hooks.swarms.store.apply(run.swarmId, [
        {
          type: "approval-request",
          swarmId: run.swarmId,
          time: Date.now(),
          requestId,
          agentId: "agent-1",
          command: "npm publish",
          cwd: "/nowhere",
          reason: "ask: matches no allow rule",
        },
      ]);
      await waitFor("the prompt", () => approvals.pending().find((p) => p.requestId === requestId));
      await waitFor(
        "the prompt to time out",
        () => !approvals.pending().some((p) => p.requestId === requestId) && true,
      );
      await waitFor("the timeout to be logged", () =>
        hooks.log.recentLines().find((l) => l.includes(`approval timed out: \`npm publish\``) && l.includes(requestId)),
      );
      assert.ok(
        !hooks.reviewSurfaces.swarms.view(run.swarmId)?.approvals.some((a) => a.requestId === requestId),
        "the store dropped it",
      );
    } finally {
      approvals.setTimeoutMs(undefined);
    }
  });
});
