// A shared worker whose server cannot start (here its token is a folder, as a damaged or foreign file would be): the
// window says so at once with the server's own words and leaves the worker stopped with a Restart action, instead of
// waiting 120 s per try and restarting it four times. Once the cause is gone, Restart Worker attaches. The window is
// put on a server folder of the test's own (the window reads XDG_RUNTIME_DIR each time it connects).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as vscode from "vscode";
import { stopServersIn } from "../../serverFolder";
import { requestScreenshot } from "./automationMarkers";
import { noSwarmRunning, swarmboard, waitFor } from "./hostApi";

const config = () => vscode.workspace.getConfiguration("swarmboard");

describe("a shared worker whose server cannot start", function () {
  this.timeout(300_000);

  it("says why at once with the server's log, does not restart it in a loop, and attaches once it is fixed", async () => {
    const { hooks } = await swarmboard();
    // Attached first: a link still connecting has read the old folder.
    await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready", 180_000);
    await noSwarmRunning(hooks);
    const saved = process.env.XDG_RUNTIME_DIR;
    const dir = mkdtempSync(path.join(os.tmpdir(), "sb-broken-"));
    const token = path.join(dir, "swarmboard", "token");
    mkdirSync(token, { recursive: true, mode: 0o700 });
    process.env.XDG_RUNTIME_DIR = dir;
    const was = config().inspect<boolean>("sharedWorker")?.globalValue;
    let gaveUp: string | undefined;
    const sub = hooks.swarms.onWorkerGaveUp((reason) => (gaveUp = reason));
    try {
      const logged = hooks.log.recentLines().length;
      // On the shared worker (the runner may have turned it off for the session), restarted onto this folder. The
      // limit is half of what one try used to wait (120 s): only noticing the server's exit answers within it.
      await config().update("sharedWorker", true, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand("swarmboard.restartWorker");
      const reason = await waitFor("the window to say the worker could not be started", () => gaveUp, 60_000);
      // The notification: what happened and the server's own last words; the log has the rest.
      assert.match(
        reason,
        /^could not be started: its server exited with code 1 at its start: swarmboard worker: \S+token can be read by other users \(or is not a file\); remove it and start Swarmboard again\.$/,
      );
      const said = hooks.log
        .recentLines()
        .slice(logged)
        .find((l) => l.includes("before it listened on"));
      assert.match(
        said ?? "",
        /The shared Swarmboard server started here \(pid \d+\) exited with code 1 before it listened on /,
      );
      assert.match(
        said ?? "",
        /The last lines of its log:\n {2}swarmboard worker: \S+token can be read by other users/,
      );
      assert.match(said ?? "", /Its whole log: \S+server-[^ ]+\.log\. [^]*swarmboard\.sharedWorker off/);
      assert.equal(hooks.worker.state.state, "exited");
      await new Promise((r) => setTimeout(r, 1_000)); // the notification slides in
      await requestScreenshot("shared-worker-cannot-start");
      const since = hooks.log.recentLines().slice(logged);
      assert.deepEqual(
        since.filter((l) => l.includes("restarting the worker")),
        [],
        "no restart: a second try would fail the same way",
      );
      assert.equal(since.filter((l) => l.includes("starting the shared worker (pid")).length, 1, "one server started");

      rmSync(token, { recursive: true });
      await vscode.commands.executeCommand("swarmboard.restartWorker");
      await waitFor(
        "Restart Worker to attach once the cause is gone",
        () => hooks.worker.state.state === "ready",
        180_000,
      );
      assert.equal(hooks.worker.shared, true);
    } finally {
      sub.dispose();
      if (saved === undefined) delete process.env.XDG_RUNTIME_DIR;
      else process.env.XDG_RUNTIME_DIR = saved;
      await config().update("sharedWorker", was, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand("swarmboard.restartWorker");
      await waitFor("the window back on its worker", () => hooks.worker.state.state === "ready", 180_000);
      await stopServersIn(dir);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
