// A standing swarm in one window beside a batch swarm in the other, on the shared server's one model load (issue 26;
// each on a pool of its own: the standing swarm's is sized for it alone unless swarmboard.poolSwarms says more):
// window b starts watching its folder; window a launches a batch swarm whose worker then waits for an approval, so
// the batch swarm is live for as long as the test needs; the server lists both at once. Only then does an error show
// up in b's editor: b's router assigns it to a new worker, which posts and finishes, while a's swarm still waits. a
// then approves, and its swarm completes; b stops watching. Neither window's launch is refused, and each window sees
// its own swarm only.
import assert from "node:assert/strict";
import path from "node:path";
import * as vscode from "vscode";
import { diagnosticFingerprint, diagnosticTriggerId } from "../../../src/core/diagnosticTriggers";
import type { TurnScript } from "../../../src/protocol/turnScript";
import { reportLine, requestScreenshot } from "./automationMarkers";
import { waitFor } from "./hostApi";
import { modelPath } from "./reviewSwarmRun";
import { serverStatus } from "./sharedServer";
import { swarmTrace } from "./swarmTrace";
import {
  endsCompleted,
  folder,
  other,
  part,
  recipeFile,
  waitingCommand,
  waitingRecipe,
  type Hooks,
} from "./twoWindowsSwarms";
import { hear, say } from "./windowMeeting";

const error = { message: "median sorts numbers as strings", source: "test", code: "E1" };
const errorId = diagnosticTriggerId(diagnosticFingerprint("src/stats.js", error), 1);
const workerFinding = "window b's worker looked at median's sort";
/** Both windows' swarms on one model file (one load), threads and KV cap. */
const model = () => modelPath("tiny-random-qwen2-chatml.gguf");
const kvCells = 16_384;

const routerScript: TurnScript = {
  agents: {
    "agent-1": [
      { tool: "wait_for_triggers", args: {} },
      { tool: "assign_task", args: { trigger: errorId, task: "fix median's sort" } },
      { tool: "wait_for_triggers", args: {} },
    ],
    // The first worker of a standing swarm (as in watching.test.ts).
    "agent-5": [
      { tool: "post_finding", args: { kind: "OBSERVED", text: workerFinding } },
      { tool: "finish", args: { summary: "looked" } },
    ],
  },
};

/** Window b: watches its folder, and routes an error to a worker while window a's batch swarm is live. */
export async function watchBesideBatch(hooks: Hooks): Promise<void> {
  const diagnostics = vscode.languages.createDiagnosticCollection("swarmboard-two-windows-watch");
  try {
    const result = await vscode.commands.executeCommand<{ outcome: string; swarmId?: string; reason?: string }>(
      "swarmboard.startWatching",
      {
        workspace: folder(),
        modelPath: model(),
        threads: 1,
        kvCells,
        script: routerScript,
      },
    );
    assert.equal(result?.outcome, "launched", `window b's Start Watching: ${result?.reason ?? ""}`);
    const swarmId = result!.swarmId!;
    const stateDir = hooks.swarms.store.place(swarmId)?.stateDir;
    assert.ok(stateDir, "the store knows the standing swarm's state dir");
    say(part, "standing-watching", { swarmId });
    const batch = await hear<{ swarmId: string }>(other, "batch-waiting");

    const stats = vscode.Uri.file(path.join(folder(), "src", "stats.js"));
    const diagnostic = new vscode.Diagnostic(
      new vscode.Range(2, 0, 2, 10),
      error.message,
      vscode.DiagnosticSeverity.Error,
    );
    diagnostics.set(stats, [Object.assign(diagnostic, { source: error.source, code: error.code })]);
    const decision = await waitFor(
      "the router to assign the error to a worker",
      () =>
        swarmTrace(stateDir).find(
          (e) => e.type === "trigger-decision" && e.triggerId === errorId && e.agentId !== undefined,
        ),
      180_000,
    );
    assert.equal(decision.type === "trigger-decision" && decision.agentId, "agent-5");
    await waitFor(
      "the worker's finding on the standing swarm's board",
      () => hooks.swarms.store.swarm(swarmId)?.entries.find((e) => e.text === workerFinding),
      180_000,
    );
    const status = await serverStatus();
    assert.ok(
      status.swarms.includes(swarmId) && status.swarms.includes(batch.swarmId),
      `the server runs the standing swarm and window a's batch swarm at once: ${status.swarms.join(", ")}`,
    );
    assert.equal(hooks.swarms.store.swarm(batch.swarmId), undefined, "window b does not show a's swarm");
    // Not an assertion: the panel on the standing swarm, its worker's finding in, for the picture.
    await vscode.commands.executeCommand("swarmboard.openPanel");
    await waitFor("the panel to be ready", () => hooks.panel()?.isReady, 30_000);
    await requestScreenshot("two-windows-standing-beside-batch");
    reportLine(
      `    window b: standing swarm ${swarmId} routed ${errorId} to agent-5 beside batch swarm ${batch.swarmId}`,
    );
    say(part, "routed");

    await hear(other, "batch-ended");
    const stopped = await vscode.commands.executeCommand<string[]>("swarmboard.stopWatching");
    assert.deepEqual(stopped, [swarmId], "Stop Watching stops this window's standing swarm");
    await waitFor("the standing swarm to stop", () => hooks.swarms.store.swarm(swarmId)?.status === "stopped", 60_000);
  } finally {
    diagnostics.dispose();
  }
}

/** Window a: launches a batch swarm beside b's standing one and keeps it live (an open approval) until b routed. */
export async function batchBesideWatch(hooks: Hooks): Promise<void> {
  const watching = await hear<{ swarmId: string }>(other, "standing-watching");
  const recipe = { ...waitingRecipe, budgets: { ...waitingRecipe.budgets, kvCells } };
  const { file, stateDir } = recipeFile("beside-watch", recipe);
  const swarmId = await hooks.reviewSurfaces.swarms.start({
    goal: "A batch swarm beside a standing one",
    recipe: file,
    modelPath: model(),
    workspace: folder(),
    stateDir,
    threads: 1,
    policy: { allow: [], ask: [waitingCommand], deny: [] },
    script: {
      agents: {
        "agent-1": [
          { tool: "post_finding", args: { kind: "OBSERVED", text: "beside the standing swarm" } },
          { tool: "run_command", args: { command: waitingCommand } },
          { tool: "finish", args: { summary: "ran it" } },
        ],
      },
    },
  });
  const approvals = hooks.reviewSurfaces.approvals;
  const prompt = await waitFor(
    "the batch swarm's approval prompt",
    () => approvals.pending().find((p) => p.swarmId === swarmId),
    180_000,
  );
  const status = await serverStatus();
  assert.ok(
    status.swarms.includes(swarmId) && status.swarms.includes(watching.swarmId),
    `the server runs this batch swarm beside window b's standing swarm: ${status.swarms.join(", ")}`,
  );
  say(part, "batch-waiting", { swarmId });
  await hear(other, "routed", 600_000);
  assert.equal(hooks.swarms.store.swarm(swarmId)?.status, "running", "the batch swarm ran all the while");
  assert.equal(approvals.answer(prompt.requestId, "once"), true);
  await endsCompleted(hooks, swarmId);
  assert.equal(hooks.swarms.store.swarm(watching.swarmId), undefined, "window a does not show b's standing swarm");
  say(part, "batch-ended");
}
