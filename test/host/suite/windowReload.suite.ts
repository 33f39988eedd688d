// Issue 29, "A reload the person can see", across a real `workbench.action.reloadWindow`. Before: a swarm runs in
// the workspace's repository (one agent waiting on an approval, so it keeps running), the panel shows it; the test
// notes the swarm and the time and reloads the window, which ends this host, its worker and the swarm. After (the
// same test file, loaded again by the reloaded workbench): the panel tab is back, restored by the serializer and
// showing that swarm; a notice says the reload ended it and offers Resume; its duration counts the time it ran.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as vscode from "vscode";
import type { TurnScript } from "../../../src/protocol/turnScript";
import { hostArtifactsDir, requestScreenshot } from "./automationMarkers";
import { swarmboard, waitFor } from "./hostApi";
import { modelPath } from "./reviewSwarmRun";

const note = path.join(hostArtifactsDir, "window-reload.note.json");
const waitingCommand = "node --version";
/** How long the swarm runs before the reload: long enough that "0s" and a real duration cannot be confused. */
const runMs = 15_000;

interface Note {
  readonly swarmId: string;
  readonly startedAt: number;
  readonly reloadAt: number;
  readonly stateDir: string;
}

const script: TurnScript = {
  agents: {
    "agent-1": [
      {
        tool: "post_finding",
        args: { kind: "OBSERVED", text: "about to ask", refs: [{ path: "src/stats.js", line: 1 }] },
      },
      { tool: "run_command", args: { command: waitingCommand } },
      { tool: "finish", args: { summary: "never reached" } },
    ],
  },
};

const recipe = {
  name: "reload",
  description: "One worker that waits for an approval.",
  roles: [{ name: "worker", count: 1, tools: ["post_finding", "run_command"], instructions: "Ask." }],
  topology: { kind: "fanout" },
  visibility: "shared",
  budgets: { wallClockMs: 10 * 60_000, tokensPerAgent: 100_000, kvCells: 32_768, steps: 40 },
  taskSources: ["goal"],
  merge: false,
};

async function beforeTheReload(): Promise<void> {
  const { hooks } = await swarmboard();
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(workspace, "the workbench has a folder open");
  await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready", 60_000);
  // The runner turns the shared worker off for this session: this suite is about a window's private worker, which
  // the reload ends with its swarm (sharedReload is the shared worker's, where the swarm runs on).
  assert.equal(hooks.worker.shared, false, "a private worker");
  const root = path.join(os.tmpdir(), `swarmboard-reload-${Date.now()}`);
  mkdirSync(root, { recursive: true });
  const recipeFile = path.join(root, "reload-recipe.json");
  const stateDir = path.join(root, "state");
  writeFileSync(recipeFile, JSON.stringify(recipe));
  const swarmId = await hooks.reviewSurfaces.swarms.start({
    goal: "Keep running until the window reloads",
    recipe: recipeFile,
    modelPath: modelPath(),
    // The workspace's own repository: a reloaded window lists the swarms of its folders' histories.
    workspace,
    stateDir,
    threads: 1,
    policy: { allow: [], ask: [waitingCommand], deny: [] },
    script,
  });
  await vscode.commands.executeCommand("swarmboard.openPanel");
  await waitFor(
    "the agent waiting for an approval",
    () => (hooks.swarms.store.swarm(swarmId)?.approvals.length ?? 0) >= 1,
    180_000,
  );
  const startedAt = hooks.swarms.store.swarm(swarmId)?.startedAt ?? 0;
  await waitFor(
    "the panel showing the swarm",
    () => hooks.panel()?.isReady && hooks.swarms.panelState().swarm?.id === swarmId,
  );
  await new Promise((r) => setTimeout(r, Math.max(0, startedAt + runMs - Date.now())));
  // Hide the toasts, do not clear them: clearing closes the approval prompt, and a closed prompt is the user's deny
  // (src/host/approvals/approvalPrompts.ts), after which the agent ran on and finished before the reload came.
  await vscode.commands.executeCommand("notifications.hideToasts");
  await requestScreenshot("window-reload-before");
  assert.equal(hooks.reviewSurfaces.approvals.pending().length, 1, "the approval still waits as the window reloads");
  writeFileSync(note, JSON.stringify({ swarmId, startedAt, reloadAt: Date.now(), stateDir } satisfies Note));
  await vscode.commands.executeCommand("workbench.action.reloadWindow");
  // This host ends with the reload; the test's second half runs in the next one.
  await new Promise(() => undefined);
}

async function afterTheReload(before: Note): Promise<void> {
  const { hooks } = await swarmboard();
  const panel = await waitFor("the panel tab restored", () => hooks.panel(), 120_000);
  assert.ok(
    hooks.log.recentLines().some((l) => l.includes("panel: restored after a reload")),
    "restored by the serializer",
  );
  await waitFor(
    `the restored panel showing swarm ${before.swarmId}`,
    () => panel.isReady && hooks.swarms.panelState().swarm?.id === before.swarmId,
    120_000,
  );
  const view = hooks.swarms.store.swarm(before.swarmId);
  assertNothingAfterTheReload(before.stateDir);
  assert.equal(view?.past?.outcome, "interrupted", "the reload ended the swarm (its worker went with the window)");
  const ran = (view?.endedAt ?? 0) - (view?.startedAt ?? 0);
  const said = hooks.log.recentLines().filter((l) => /reload|history of|panel:/.test(l));
  console.log(`host log after the reload:\n${said.join("\n")}`);
  // The window writes "still running" every 3 s (ReloadInterruptions): up to 3 s before the reload, and the write
  // in flight, are lost.
  assert.ok(ran >= runMs - 5000, `it ran ${ran} ms: the ${runMs} ms before the reload, less at most 5 s (not 0s)`);
  assert.ok(ran <= before.reloadAt - before.startedAt + 10_000, `and not much more than it ran (${ran} ms)`);
  const notice = await waitFor("the notice", () =>
    hooks.swarms.notices
      .recent()
      .find((n) =>
        n.text.includes("“Keep running until the window reloads” was running when this window reloaded or closed"),
      ),
  );
  assert.deepEqual(notice.actions, ["Resume", "Review Branches"]);
  assert.match(notice.text, /stopped with it after (1\d|2\d)s\./);
  // The page draws the swarm's view as it arrives: probed until it shows the finding (one probe could come first).
  let texts = "";
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
    texts = (await panel.probe("after-reload")).dom?.findingTexts.join("\n") ?? "";
    if (/about to ask/.test(texts)) break;
  }
  assert.match(texts, /about to ask/, "the page shows the swarm's finding");
  await new Promise((r) => setTimeout(r, 500)); // not an assertion: lets the page draw before the picture
  await requestScreenshot("window-reload-after");
}

/** The trace ends with the request pending: nobody answered it for the user and the agent took no step after. */
function assertNothingAfterTheReload(stateDir: string): void {
  const trace = readFileSync(path.join(stateDir, "events.jsonl"), "utf8");
  const types = trace
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { type: string }).type);
  const after = types.slice(types.lastIndexOf("approval-request") + 1).filter((t) => t !== "kv-stats");
  assert.deepEqual(after, [], "the trace ends with the approval still asked");
}

describe("the window reloaded while a swarm runs", function () {
  this.timeout(420_000);

  if (existsSync(note)) {
    const before = JSON.parse(readFileSync(note, "utf8")) as Note;
    it("brings the panel back showing the swarm, says the reload ended it, and counts the time it ran", () =>
      afterTheReload(before));
  } else {
    it("runs a swarm with the panel open, then reloads the window", () => beforeTheReload());
  }
});
