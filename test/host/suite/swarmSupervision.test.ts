// Supervision in the real host: a worker that keeps crashing is restarted at most 4 times in 3 minutes, then
// left stopped with a restart action in the Swarms tree; the action brings a fresh worker back. A swarm whose
// worker sends nothing while agents are live is reported stuck.
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { RestartBudget } from "../../../src/host/supervision/restartBudget";
import { SwarmStore } from "../../../src/host/swarm/swarmStore";
import { StuckWatch, type StuckReport } from "../../../src/host/supervision/stuckWatch";
import type { WorkerProcess } from "../../../src/host/workerProcess";
import { swarmboard, waitFor } from "./hostApi";
import { usePrivateWorker } from "./sharedServer";

describe("worker supervision", function () {
  this.timeout(120_000);
  usePrivateWorker();

  it("restarts a crashed worker 4 times, then stops with a restart action that works", async () => {
    const { hooks } = await swarmboard();
    const first = await waitFor(
      "the worker to be ready",
      () => (hooks.worker.state.state === "ready" ? hooks.worker.state.pid : undefined),
      30_000,
    );
    await vscode.commands.executeCommand("swarmboard.restartWorker"); // a fresh restart count for this test
    let gaveUp: string | undefined;
    const sub = hooks.swarms.onWorkerGaveUp((reason) => (gaveUp = reason));
    try {
      // The worker replaced by the restart is not one of the five crashes.
      const pids: number[] = [first];
      for (let crash = 1; crash <= 5; crash++) {
        const pid = await waitFor(
          `worker ${crash} to be ready`,
          () => {
            const s = hooks.worker.state;
            return s.state === "ready" && !pids.includes(s.pid) ? s.pid : undefined;
          },
          30_000,
        );
        pids.push(pid);
        process.kill(pid, "SIGKILL");
        if (crash < 5)
          await waitFor(`the restart after crash ${crash}`, () => hooks.worker.state.state !== "ready" || undefined);
      }
      await waitFor("the supervisor to give up", () => gaveUp, 30_000);
      assert.match(gaveUp ?? "", /^crashed 5 times in 3 minutes \(last: signal SIGKILL\); left stopped$/);
      // Left stopped: no sixth worker comes by itself.
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(hooks.worker.state.state, "exited");
      const [worker] = hooks.swarmsView.roots();
      assert.equal(worker.label, "Worker: stopped");
      assert.equal(worker.command?.command, "swarmboard.restartWorker");
      assert.match(hooks.swarms.statusBar.text, /worker stopped/);

      await vscode.commands.executeCommand(worker.command.command);
      const fresh = await waitFor(
        "the restarted worker",
        () => (hooks.worker.state.state === "ready" ? hooks.worker.state.pid : undefined),
        30_000,
      );
      assert.ok(!pids.includes(fresh));
    } finally {
      sub.dispose();
    }
  });
});

describe("stuck worker report", () => {
  it("reports a running swarm with live agents that sends no events, once, and clears on the next event", async () => {
    // A store of its own fed by hand (no worker events reach it), so the window's real swarms are untouched.
    const quietWorker = { onNotification: () => new vscode.Disposable(() => undefined) } as unknown as WorkerProcess;
    const store = new SwarmStore(quietWorker);
    const watch = new StuckWatch(store, 300, 50);
    const reports: StuckReport[] = [];
    const sub = watch.onDidReport((r) => reports.push(r));
    try {
      const t = Date.now();
      store.apply("quiet", [
        {
          type: "swarm-started",
          swarmId: "quiet",
          time: t,
          goal: "g",
          recipe: "research",
          mode: "shared-cells",
          trunkTokens: 10,
          model: {
            path: "/m.gguf",
            architecture: "llama",
            layers: 1,
            heads: 1,
            kvHeads: 1,
            keyHeadDim: 1,
            valueHeadDim: 1,
            kvType: "F16",
            kvBytesPerCell: 4,
            trainContextSize: 128,
            vocabularySize: 10,
          },
        },
        { type: "agent-added", swarmId: "quiet", time: t, agent: { id: "agent-1", role: "researcher" } },
        { type: "agent-state", swarmId: "quiet", time: t, agentId: "agent-1", state: "gather" },
      ]);
      await waitFor("a stuck report", () => reports.length > 0, 10_000);
      assert.equal(reports[0]?.swarmId, "quiet");
      assert.equal(reports[0]?.liveAgents, 1);
      assert.equal(watch.isStuck("quiet"), true);
      store.apply("quiet", [
        { type: "agent-state", swarmId: "quiet", time: Date.now(), agentId: "agent-1", state: "done" },
      ]);
      assert.equal(watch.isStuck("quiet"), false, "an event clears the report");
      await new Promise((r) => setTimeout(r, 600));
      assert.equal(reports.length, 1, "no agent is live any more, so no second report");
    } finally {
      sub.dispose();
      watch.dispose();
      store.dispose();
    }
  });
});

describe("restart budget", () => {
  it("allows 4 restarts in any 3 minutes, and more once the oldest leaves the window", () => {
    const budget = new RestartBudget();
    assert.deepEqual(
      [0, 1000, 2000, 3000, 4000].map((t) => budget.take(t)),
      [true, true, true, true, false],
    );
    assert.equal(budget.take(180_000), true, "the restart at 0 ms has left the window");
    budget.reset();
    assert.equal(budget.used(180_001), 0);
  });
});
