// Supervision in the real host: a worker that keeps crashing is restarted at most 4 times in 3 minutes, then
// left stopped with a restart action in the Swarms tree; the action brings a fresh worker back.
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { swarmboard, waitFor } from "./hostApi";

describe("worker supervision", function () {
  this.timeout(120_000);

  it("restarts a crashed worker 4 times, then stops with a restart action that works", async () => {
    const { hooks } = await swarmboard();
    const first = await waitFor("the worker to be ready", () => (hooks.worker.state.state === "ready" ? hooks.worker.state.pid : undefined), 30_000);
    await vscode.commands.executeCommand("swarmboard.restartWorker"); // a fresh restart count for this test
    let gaveUp: string | undefined;
    const sub = hooks.swarms.onWorkerGaveUp((reason) => (gaveUp = reason));
    try {
      // The worker replaced by the restart is not one of the five crashes.
      const pids: number[] = [first];
      for (let crash = 1; crash <= 5; crash++) {
        const pid = await waitFor(`worker ${crash} to be ready`, () => {
          const s = hooks.worker.state;
          return s.state === "ready" && !pids.includes(s.pid) ? s.pid : undefined;
        }, 30_000);
        pids.push(pid);
        process.kill(pid, "SIGKILL");
        if (crash < 5) await waitFor(`the restart after crash ${crash}`, () => hooks.worker.state.state !== "ready" || undefined);
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
      const fresh = await waitFor("the restarted worker", () => (hooks.worker.state.state === "ready" ? hooks.worker.state.pid : undefined), 30_000);
      assert.ok(!pids.includes(fresh));
    } finally {
      sub.dispose();
    }
  });
});
