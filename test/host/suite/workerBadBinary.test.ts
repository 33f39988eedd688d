// A worker killed by SIGILL (llama.cpp's native code built for a newer CPU) is reported as that, with what to do,
// and the next worker runs node-llama-cpp's official binaries in copy mode instead of crashing in a loop.
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { swarmboard, waitFor, waitForLogLine } from "./hostApi";
import { usePrivateWorker } from "./sharedServer";

describe("worker killed by SIGILL", () => {
  after(async () => {
    // Back to the patched runtime for the suites that follow (the user's restart clears the fallback), and wait
    // for the new worker: a suite that starts while the old one is being stopped would see it exit under it.
    const { hooks } = await swarmboard();
    const old = hooks.worker.state.state === "ready" ? hooks.worker.state.pid : undefined;
    await vscode.commands.executeCommand("swarmboard.restartWorker");
    await waitFor(
      "the worker restarted on the patched runtime",
      () => (hooks.worker.state.state === "ready" && hooks.worker.state.pid !== old ? hooks.worker.state : undefined),
      60_000,
    );
    await hooks.worker.ping();
  });
  // After the hook above (hooks run in the order they are declared): that one restarts a private worker.
  usePrivateWorker();

  it("says the runtime does not fit this CPU, and restarts the worker on the official binaries", async () => {
    const { hooks } = await swarmboard();
    const before = await waitFor("the worker to be ready", () =>
      hooks.worker.state.state === "ready" ? hooks.worker.state : undefined,
    );
    // Stopped first, so the request below is certainly still waiting when the signal lands.
    process.kill(before.pid, "SIGSTOP");
    const pending = hooks.worker.ping();
    process.kill(before.pid, "SIGILL");
    process.kill(before.pid, "SIGCONT");
    await assert.rejects(pending, (err: Error) => {
      assert.match(err.message, /^bad-binary: The Swarmboard worker was killed by SIGILL \(an illegal instruction\)/);
      assert.match(err.message, /compiled for a newer CPU/);
      assert.match(err.message, /official binaries in COPY MODE/);
      return true;
    });
    await waitForLogLine(hooks, "the SIGILL exit in the log", (l) =>
      l.includes(`(pid ${before.pid}) exited with signal SIGILL`),
    );
    await waitForLogLine(
      hooks,
      "the explanation in the log",
      (l) => l.includes("killed by SIGILL") && l.includes("Restart Worker"),
    );

    const next = await waitFor(
      "a new worker on the official binaries",
      () =>
        hooks.worker.state.state === "ready" && hooks.worker.state.pid !== before.pid ? hooks.worker.state : undefined,
      60_000,
    );
    assert.notEqual(next.pid, before.pid);
    const answer = await hooks.worker.ping();
    assert.equal(answer.pid, next.pid);
  });
});
