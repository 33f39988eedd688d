import assert from "node:assert/strict";
import * as vscode from "vscode";
import { requestScreenshot } from "./automationMarkers";
import { swarmboard, waitFor, waitForLogLine } from "./hostApi";

describe("Swarms view and panel", () => {
  it("shows the Swarms view with the worker's state", async () => {
    const { hooks } = await swarmboard();
    await vscode.commands.executeCommand("swarmboard.swarms.focus");
    await waitFor("the Swarms view to be visible", () => hooks.swarmsView.visible);
    await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready");
    const [worker, hint] = hooks.swarmsView.roots();
    assert.match(worker.label, /^Worker: ready \(pid \d+\)$/);
    assert.equal(hint.command?.command, "swarmboard.launchSwarm");
  });

  it("opens the panel, which completes the ready handshake and answers a probe from what it renders", async () => {
    const { hooks } = await swarmboard();
    await vscode.commands.executeCommand("swarmboard.openPanel");
    const panel = await waitFor("the panel to be ready", () => hooks.panel()?.isReady && hooks.panel());
    const reply = await panel.probe("probe-1");
    assert.equal(reply.nonce, "probe-1");
    assert.equal(reply.rendered.title, "Swarmboard");
    assert.match(reply.rendered.worker, /^Worker: ready \(pid \d+\)$/);
  });

  it("rejects and logs a message from the page that fails its schema", async () => {
    const { hooks } = await swarmboard();
    const panel = await waitFor("the panel to be ready", () => hooks.panel()?.isReady && hooks.panel());
    panel.requestMalformedReply("malformed-7");
    const line = await waitForLogLine(hooks, "the rejection in the log", (l) => l.includes("malformed-7"));
    assert.match(
      line,
      /^\[warn\] panel: rejected a message that failed its schema \(rendered: .*\): \{"type":"probeReply"/,
    );
    // Rejected means not acted on: the panel still answers a well-formed probe afterwards.
    assert.equal((await panel.probe("probe-2")).nonce, "probe-2");
  });

  it("has the page refuse a host message that fails its schema, and logs the refusal", async () => {
    const { hooks } = await swarmboard();
    const panel = await waitFor("the panel to be ready", () => hooks.panel()?.isReady && hooks.panel());
    await panel.postUnchecked({ type: "state", state: { worker: "nonsense" } });
    const line = await waitForLogLine(hooks, "the page's refusal in the log", (l) =>
      l.includes("the page rejected a host message"),
    );
    assert.match(line, /host message failed its schema/);
  });

  // In code-server (web UI) the runner can photograph the workbench; a desktop run (npm run test:electron) has no
  // one to take the picture, so there the hook only brings the view and panel to the front.
  after(async function () {
    this.timeout(60_000);
    const { hooks } = await swarmboard();
    await vscode.commands.executeCommand("notifications.clearAll");
    await vscode.commands.executeCommand("swarmboard.swarms.focus");
    await vscode.commands.executeCommand("swarmboard.openPanel");
    const panel = await waitFor("the panel to be ready", () => hooks.panel()?.isReady && hooks.panel());
    await panel.probe("before-screenshot"); // the page has rendered its current state
    if (vscode.env.uiKind === vscode.UIKind.Web) await requestScreenshot("workbench-swarmboard");
  });
});
