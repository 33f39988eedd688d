// Start Watching in the real host (the tiny ChatML model, scripted turns, a fresh repository of the sample
// project): a standing swarm starts, the editor's error on src/stats.js reaches its router as a trigger (a warning
// elsewhere is dropped by the rules, with no model call), the router assigns it to a new worker, and a changed
// error on the same file is a follow-up that goes straight to that worker as a message, without the router; a
// message to the whole swarm becomes a trigger for the router.
import assert from "node:assert/strict";
import path from "node:path";
import * as vscode from "vscode";
import { diagnosticFingerprint, diagnosticTriggerId } from "../../../src/core/diagnosticTriggers";
import type { SwarmboardTestHooks } from "../../../src/host/testHooks";
import type { TurnScript } from "../../../src/protocol/turnScript";
import { stopSwarmsLeftRunning, swarmboard, waitFor } from "./hostApi";
import { swarmTrace } from "./swarmTrace";
import { modelPath, sampleRepo } from "./reviewSwarmRun";

const first = { message: "median sorts numbers as strings", source: "test", code: "E1" };
const changed = { message: "median of [10, 9] is 9.5, expected 9.5 got 5", source: "test", code: "E1" };
const errorId = diagnosticTriggerId(diagnosticFingerprint("src/stats.js", first), 1);

const script: TurnScript = {
  agents: {
    "agent-1": [
      { tool: "wait_for_triggers", args: {} },
      { tool: "assign_task", args: { trigger: errorId, task: "fix median's sort" } },
      { tool: "wait_for_triggers", args: {} },
    ],
    // The worker asks the person and waits: it is alive when the follow-up comes, and reads it when the call returns.
    "agent-5": [
      { tool: "ask_user", args: { question: "Numeric sort with (a, b) => a - b?" } },
      { tool: "finish", args: { summary: "read the follow-up" } },
    ],
  },
};

describe("Start Watching: the editor's errors as triggers of a standing swarm", function () {
  this.timeout(300_000);
  let hooks: SwarmboardTestHooks;
  const diagnostics = vscode.languages.createDiagnosticCollection("swarmboard-watch-test");

  after(async () => {
    diagnostics.dispose();
    await stopSwarmsLeftRunning((await swarmboard()).hooks);
  });

  it("routes a new error to a worker through the router, and its follow-up straight to that worker", async () => {
    hooks = (await swarmboard()).hooks;
    await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready", 60_000);
    const { repo } = sampleRepo("watch");
    const stats = vscode.Uri.file(path.join(repo, "src", "stats.js"));
    const at = (line: number) => new vscode.Range(line, 0, line, 10);
    const diagnostic = (d: typeof first, severity: vscode.DiagnosticSeverity) =>
      Object.assign(new vscode.Diagnostic(at(2), d.message, severity), { source: d.source, code: d.code });
    diagnostics.set(stats, [diagnostic(first, vscode.DiagnosticSeverity.Error)]);
    diagnostics.set(vscode.Uri.file(path.join(repo, "README.md")), [
      diagnostic({ message: "line too long", source: "test", code: "W1" }, vscode.DiagnosticSeverity.Warning),
    ]);

    const result = await vscode.commands.executeCommand<{ outcome: string; swarmId?: string; reason?: string }>(
      "swarmboard.startWatching",
      { workspace: repo, modelPath: modelPath("tiny-random-qwen2-chatml.gguf"), threads: 2, kvCells: 16_384, script },
    );
    assert.equal(result?.outcome, "launched", result?.reason);
    const swarmId = result!.swarmId!;
    const stateDir = hooks.swarms.store.place(swarmId)?.stateDir;
    assert.ok(stateDir, "the store knows the swarm's state dir");

    const owner = await waitFor(
      "the worker that owns the error",
      () =>
        swarmTrace(stateDir)
          .filter((e) => e.type === "trigger-decision")
          .find((e) => e.type === "trigger-decision" && e.triggerId === errorId && e.agentId !== undefined),
      120_000,
    );
    assert.equal(owner.type === "trigger-decision" && owner.agentId, "agent-5");
    await waitFor("agent-5 to ask", () => hooks.swarms.store.swarm(swarmId)?.questions[0], 60_000);
    diagnostics.set(stats, [diagnostic(changed, vscode.DiagnosticSeverity.Error)]);
    const followId = diagnosticTriggerId(diagnosticFingerprint("src/stats.js", changed), 1);
    const message = await waitFor(
      "the follow-up as a message to agent-5",
      () =>
        hooks.swarms.store
          .swarm(swarmId)
          ?.entries.find((e) => e.kind === "MESSAGE" && e.text.includes(`[${followId}]`)),
      60_000,
    );
    assert.deepEqual(message.to, { agent: "agent-5" });
    // The panel's trigger stream shows where each went and who owns it.
    await vscode.commands.executeCommand("swarmboard.openPanel");
    const panel = await waitFor("the panel to be ready", () => hooks.panel()?.isReady && hooks.panel(), 30_000);
    let rows = (await panel.probe("triggers-0")).dom?.triggers ?? [];
    for (let n = 1; !rows.some((r) => r.id === followId); n++) {
      assert.ok(n < 100, `the panel never showed ${followId}: ${JSON.stringify(rows)}`);
      await new Promise((r) => setTimeout(r, 200));
      rows = (await panel.probe(`triggers-${n}`)).dom?.triggers ?? [];
    }
    assert.equal(rows.find((r) => r.id === errorId)?.owner, "agent-5");
    assert.match(rows.find((r) => r.id === followId)?.text ?? "", /src\/stats\.js:3 → to agent-5/);
    assert.ok(
      rows.some((r) => /dropped: severity/.test(r.text)),
      "the dropped warning is listed",
    );
    // Message Swarm on a standing swarm: a trigger for the router, not a broadcast to every agent.
    const said = await vscode.commands.executeCommand<{ messageId: string; asTrigger?: boolean }>(
      "swarmboard.messageSwarm",
      { swarmId, text: "Please also look at the mean of an empty list." },
    );
    assert.equal(said?.asTrigger, true, JSON.stringify(said));
    const asTrigger = await waitFor("the message as a trigger", () =>
      swarmTrace(stateDir).find((e) => e.type === "trigger" && e.trigger.id === said!.messageId),
    );
    assert.equal(asTrigger.type === "trigger" && asTrigger.trigger.source, "message");
    assert.deepEqual(asTrigger.type === "trigger" && asTrigger.route, { route: "router" });
    assert.ok(
      !(hooks.swarms.store.swarm(swarmId)?.entries ?? []).some((e) => e.kind === "MESSAGE" && e.author === "user"),
      "no broadcast message was posted",
    );
    // The message's trigger ends the router's last scripted wait: its script then runs out and it finishes. Stopping
    // before that would race the router's step.
    await waitFor(
      "the router to take the message and finish",
      () => swarmTrace(stateDir).find((e) => e.type === "tool-call" && e.agentId === "agent-1" && e.tool === "finish"),
      60_000,
    );
    // Stop Watching stops the standing swarm this window watches, and says so.
    const stopped = await vscode.commands.executeCommand<string[]>("swarmboard.stopWatching");
    assert.deepEqual(stopped, [swarmId]);
    assert.match(hooks.swarms.receipts().at(-1) ?? "", new RegExp(`^Swarmboard: stopped watching \\(${swarmId}\\)`));
    await waitFor("the swarm to end", () => hooks.swarms.store.swarm(swarmId)?.status === "stopped", 60_000);
    assert.deepEqual(await vscode.commands.executeCommand<string[]>("swarmboard.stopWatching"), [], "none is left");

    const events = swarmTrace(stateDir);
    const routes = new Map(events.flatMap((e) => (e.type === "trigger" ? [[e.trigger.id, e.route] as const] : [])));
    assert.deepEqual(routes.get(errorId), { route: "router" });
    assert.deepEqual(routes.get(followId), { route: "direct", agentId: "agent-5", thread: errorId });
    const warning = [...routes.values()].find((r) => r.route === "dropped");
    assert.equal(warning?.route === "dropped" && warning.rule, "severity", "the warning was dropped by its rule");
    const decided = events.flatMap((e) =>
      e.type === "trigger-decision" && e.agentId === undefined ? [e.triggerId] : [],
    );
    assert.deepEqual(decided, [errorId], "the router decided the new error only");
    const routerTools = new Set(
      events.flatMap((e) => (e.type === "tool-call" && e.agentId === "agent-1" ? [e.tool] : [])),
    );
    assert.deepEqual([...routerTools].sort(), ["assign_task", "finish", "wait_for_triggers"]);
  });
});
