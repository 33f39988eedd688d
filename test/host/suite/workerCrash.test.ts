// Issue 14, crash recovery in the real host: a swarm whose worker is killed with SIGKILL while an agent waits for
// an approval ends as interrupted; the tree, the panel's lanes and budget and the status bar keep nothing live,
// and a notification says so with Resume, Review Branches and Show Log. Its Resume continues the swarm to its end.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import type { TurnScript } from "../../../src/protocol/turnScript";
import { requestScreenshot } from "./automationMarkers";
import { noSwarmRunning, swarmboard, waitFor } from "./hostApi";
import { modelPath, sampleRepo } from "./reviewSwarmRun";
import { usePrivateWorker } from "./sharedServer";

const waitingCommand = "node --version";
const goal = "Wait for an answer that never comes";

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
    "agent-2": [
      { tool: "run_command", args: { command: waitingCommand } },
      { tool: "finish", args: { summary: "never reached" } },
    ],
  },
};

const recipe = {
  name: "crash",
  description: "Two workers that wait for an approval.",
  roles: [{ name: "worker", count: 2, tools: ["post_finding", "run_command"], instructions: "Ask." }],
  topology: { kind: "fanout" },
  visibility: "shared",
  budgets: { wallClockMs: 10 * 60_000, tokensPerAgent: 100_000, kvCells: 32_768, steps: 40 },
  taskSources: ["goal"],
  merge: false,
};

describe("crash recovery", function () {
  this.timeout(420_000);
  usePrivateWorker();

  it("shows a swarm whose worker was killed as interrupted, with no live state left, and says so", async () => {
    const { hooks } = await swarmboard();
    const { root, repo } = sampleRepo("crash");
    const stateDir = path.join(root, "state");
    mkdirSync(stateDir);
    const recipeFile = path.join(root, "crash-recipe.json");
    writeFileSync(recipeFile, JSON.stringify(recipe));
    await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready", 60_000);
    // One swarm per worker: an earlier suite's swarm (the shared review run) finishes first.
    await noSwarmRunning(hooks);
    const swarmId = await hooks.reviewSurfaces.swarms.start({
      goal,
      recipe: recipeFile,
      modelPath: modelPath(),
      workspace: repo,
      stateDir,
      threads: 1,
      policy: { allow: [], ask: [waitingCommand], deny: [] },
      script,
    });
    await vscode.commands.executeCommand("swarmboard.openPanel");
    await waitFor(
      "both agents waiting for an approval",
      () => (hooks.reviewSurfaces.swarms.view(swarmId)?.approvals.length ?? 0) >= 2,
      180_000,
    );
    const view = hooks.swarms.store.swarm(swarmId);
    assert.ok(view?.stats, "the running swarm has KV stats before the crash");
    const usage = hooks.swarms.panelState().swarm?.usage ?? [];
    assert.ok(usage.length >= 1, "the panel's chart has the run's usage so far");
    assert.ok(usage.every((u) => u.usedCells > 0 && u.poolCells >= u.usedCells));
    if (vscode.env.uiKind === vscode.UIKind.Web) {
      await waitFor("the panel to be ready", () => hooks.panel()?.isReady);
      await new Promise((r) => setTimeout(r, 500));
      await requestScreenshot("usage-chart");
    }
    assert.match(hooks.swarms.statusBar.text, / live · KV \d+%/);

    const pid = hooks.swarms.workerPid();
    assert.ok(pid, "a worker is running");
    // The notice's Resume is picked once the interrupted state has been checked (and pictured) below.
    let pickResume: (action: string) => void = () => undefined;
    const resumePicked = new Promise<string>((resolve) => (pickResume = resolve));
    hooks.swarms.notices.answerNext(() => resumePicked);
    process.kill(pid, "SIGKILL");

    const notice = await waitFor("the interrupted notice", () =>
      // This swarm's notice: an earlier suite's swarm may have been interrupted by a restart (SIGTERM) too.
      hooks.swarms.notices.recent().find((n) => n.text.includes("was interrupted") && n.text.includes(goal)),
    );
    assert.equal(notice.level, "warning");
    assert.match(notice.text, /the worker exited with signal SIGKILL/);
    assert.deepEqual(notice.actions, ["Resume", "Review Branches", "Show Log"]);

    const after = hooks.swarms.store.swarm(swarmId)!;
    assert.equal(after.interrupted, "the worker exited with signal SIGKILL");
    assert.equal(after.stats, undefined, "no KV stats are kept for a dead worker");
    assert.equal(after.approvals.length, 0, "no approval is left open");

    const swarmNode = hooks.swarmsView.roots().find((n) => n.kind === "swarm" && n.swarmId === swarmId)!;
    assert.match(swarmNode.description ?? "", /· interrupted ·/);
    assert.equal(swarmNode.contextValue, "swarm-interrupted-resumable-cleanable");
    for (const agent of hooks.swarms.children(swarmNode)) {
      assert.match(agent.description ?? "", /^(interrupted|done|failed) ·/, `${agent.label}: ${agent.description}`);
      assert.doesNotMatch(agent.contextValue ?? "", /-live/, `${agent.label} is not live`);
    }

    const panel = hooks.swarms.panelState().swarm!;
    assert.equal(panel.id, swarmId);
    assert.equal(panel.status, "interrupted");
    assert.equal(panel.budget, undefined, "the budget shows no owners or cells of a dead worker");
    for (const lane of panel.agents) assert.match(lane.state, /^(interrupted|done|failed)$/);

    await waitFor("the status bar to drop live numbers", () => /interrupted/.test(hooks.swarms.statusBar.text));
    assert.doesNotMatch(hooks.swarms.statusBar.text, /live|KV/);

    if (vscode.env.uiKind === vscode.UIKind.Web) {
      // Not an assertion: lets the notification slide in so the picture shows it whole.
      await new Promise((r) => setTimeout(r, 1500));
      await requestScreenshot("crash-notification");
    }
    await waitFor("the worker to be back", () => hooks.worker.state.state === "ready", 60_000);

    // Resume, as the notification's button does: the same swarm continues in the new worker to its end. Its
    // agents are scripted to finish at once (nothing left to ask).
    hooks.history.resumeOverrides.script = { agents: {} };
    const ended = hooks.swarms.notices.recent().length;
    try {
      pickResume("Resume");
      await waitFor(
        "the resumed swarm to run",
        () => hooks.swarms.store.swarm(swarmId)?.interrupted === undefined,
        60_000,
      );
      const done = await waitFor(
        "the resumed swarm to end",
        () => {
          const v = hooks.swarms.store.swarm(swarmId);
          return v && v.status !== "running" && v.status !== "starting" ? v : undefined;
        },
        240_000,
      );
      assert.equal(done.status, "completed", `${done.status}: ${done.endReason}`);
      assert.equal(done.interrupted, undefined);
      const told = await waitFor("the end notice of the resumed run", () =>
        hooks.swarms.notices
          .recent()
          .slice(ended)
          .find((n) => n.text.includes("finished")),
      );
      assert.match(told.text, /Wait for an answer that never comes/);
      const node = hooks.swarmsView.roots().find((n) => n.kind === "swarm" && n.swarmId === swarmId)!;
      assert.match(node.description ?? "", /· completed ·/);
    } finally {
      delete hooks.history.resumeOverrides.script;
    }
  });
});
