// A standing swarm outlives its worker (a window reload or a crash kills it): killed with SIGKILL while its router
// waits, it is shown as interrupted; Resume continues it in the new worker as a standing swarm again, the trigger
// taken before the kill is still in its log, and an error that appears in the editor after the Resume reaches it
// (the host watches the editor's errors for the resumed swarm as it did for the first run).
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import { diagnosticFingerprint, diagnosticTriggerId } from "../../../src/core/diagnosticTriggers";
import { type SwarmEvent } from "../../../src/protocol/swarmEvents";
import type { TurnScript } from "../../../src/protocol/turnScript";
import { reportLine } from "./automationMarkers";
import { swarmTrace, waitingRouter } from "./swarmTrace";
import { noSwarmRunning, stopSwarmsLeftRunning, swarmboard, waitFor } from "./hostApi";
import { modelPath, sampleRepo } from "./reviewSwarmRun";

const firstError = { message: "median sorts numbers as strings", source: "test", code: "E1" };
const laterError = { message: "mean of [] is NaN", source: "test", code: "E2" };
const beforeId = diagnosticTriggerId(diagnosticFingerprint("src/stats.js", firstError), 1);
const afterId = diagnosticTriggerId(diagnosticFingerprint("src/mean.js", laterError), 1);

// The router reads the first trigger and waits for more: it is alive, deciding nothing, when the worker dies.
const script: TurnScript = waitingRouter;

const takenTrigger = (events: SwarmEvent[], id: string) =>
  events.find((e) => e.type === "trigger" && e.trigger.id === id);

describe("a standing swarm resumed after its worker was killed (a reload, a crash)", function () {
  this.timeout(420_000);
  const diagnostics = vscode.languages.createDiagnosticCollection("swarmboard-watch-resume-test");
  after(async () => {
    diagnostics.dispose();
    await stopSwarmsLeftRunning((await swarmboard()).hooks);
  });

  it("is interrupted, resumes standing with its trigger log, and takes the editor's errors again", async () => {
    const { hooks } = await swarmboard();
    await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready", 60_000);
    await noSwarmRunning(hooks);
    const { repo } = sampleRepo("watch-resume", (dir) =>
      writeFileSync(
        path.join(dir, "src", "mean.js"),
        "module.exports = (v) => v.reduce((a, x) => a + x) / v.length;\n",
      ),
    );
    const error = (d: typeof firstError) =>
      Object.assign(new vscode.Diagnostic(new vscode.Range(2, 0, 2, 10), d.message), {
        source: d.source,
        code: d.code,
      });
    diagnostics.set(vscode.Uri.file(path.join(repo, "src", "stats.js")), [error(firstError)]);

    const result = await vscode.commands.executeCommand<{ outcome: string; swarmId?: string; reason?: string }>(
      "swarmboard.startWatching",
      { workspace: repo, modelPath: modelPath("tiny-random-qwen2-chatml.gguf"), threads: 2, kvCells: 16_384, script },
    );
    assert.equal(result?.outcome, "launched", result?.reason);
    const swarmId = result!.swarmId!;
    assert.equal(
      hooks.swarms.receipts().at(-1),
      `Swarmboard: watching ${path.basename(repo)}: new errors and saves (tests) go to the swarm`,
      "Start Watching says what it watches",
    );
    const stateDir = hooks.swarms.store.place(swarmId)!.stateDir;
    await waitFor("the first error taken", () => takenTrigger(swarmTrace(stateDir), beforeId), 120_000);
    await waitFor(
      "the router to wait again",
      () => swarmTrace(stateDir).filter((e) => e.type === "tool-call" && e.tool === "wait_for_triggers").length >= 2,
      60_000,
    );

    const pid = hooks.swarms.workerPid();
    assert.ok(pid, "a worker is running");
    process.kill(pid, "SIGKILL");
    await waitFor("the swarm shown as interrupted", () => hooks.swarms.store.swarm(swarmId)?.interrupted, 60_000);
    await waitFor("the worker to be back", () => hooks.worker.state.state === "ready", 60_000);

    // The resumed router is scripted to end at once: the swarm stands on, its triggers wait in the log.
    hooks.history.resumeOverrides.script = { agents: {} };
    try {
      const resumed = await vscode.commands.executeCommand<string | undefined>("swarmboard.resumeSwarm", {
        swarmId,
      });
      assert.equal(resumed, swarmId);
      assert.equal(hooks.swarms.receipts().at(-1), "Swarmboard: swarm resumed; it takes the editor's errors again");
    } finally {
      delete hooks.history.resumeOverrides.script;
    }
    await waitFor("the resumed swarm to run", () => hooks.swarms.store.swarm(swarmId)?.status === "running", 60_000);
    const marked = swarmTrace(stateDir).length;
    // Appears after the Resume: only a host that watches the editor for the resumed swarm sends it. The resumed
    // swarm takes it once it is set up again in the new worker (the model loaded, the trunk decoded), which on a
    // busy two-core machine takes as long as the first run's start: hence the first error's limit.
    const setAt = Date.now();
    diagnostics.set(vscode.Uri.file(path.join(repo, "src", "mean.js")), [error(laterError)]);
    const taken = await waitFor(
      "the new error taken by the resumed swarm",
      () => takenTrigger(swarmTrace(stateDir).slice(marked), afterId),
      120_000,
    );
    reportLine(`    the resumed swarm took the new error ${Date.now() - setAt} ms after it appeared`);
    assert.deepEqual(taken.type === "trigger" && taken.route, { route: "router" });
    const log = readFileSync(path.join(stateDir, "triggers.jsonl"), "utf8");
    assert.ok(log.includes(beforeId), "the trigger taken before the kill is still in the log");
    assert.ok(log.includes(afterId), "the new one was logged by the resumed swarm");
    assert.equal(hooks.swarms.store.swarm(swarmId)?.interrupted, undefined);

    await vscode.commands.executeCommand("swarmboard.stopSwarm", { swarmId });
    assert.match(
      hooks.swarms.receipts().at(-1) ?? "",
      /^Swarmboard: stopping the swarm; each agent stops at its next step$/,
    );
    await waitFor("the swarm to end", () => hooks.swarms.store.swarm(swarmId)?.status === "stopped", 60_000);
  });
});
