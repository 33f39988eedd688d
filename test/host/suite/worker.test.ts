import assert from "node:assert/strict";
import * as vscode from "vscode";
import { swarmboard, waitFor, waitForLogLine } from "./hostApi";
import { usePrivateWorker } from "./sharedServer";

interface Ping {
  nonce: string;
  version: string;
  pid: number;
  node: string;
}

describe("worker process", () => {
  usePrivateWorker();

  it("is forked by the host and says it is ready", async () => {
    const { hooks } = await swarmboard();
    const ready = await waitFor("the worker to be ready", () =>
      hooks.worker.state.state === "ready" ? hooks.worker.state : undefined,
    );
    assert.notEqual(ready.pid, process.pid, "the worker must be its own process, not the extension host");
  });

  it("answers a ping through the Check Worker command (host -> worker -> host)", async () => {
    const { extension, hooks } = await swarmboard();
    const result = await vscode.commands.executeCommand<Ping | undefined>("swarmboard.pingWorker");
    assert.ok(result, "the ping command returned nothing (see the Swarmboard output)");
    assert.equal(result.version, (extension.packageJSON as { version: string }).version);
    assert.equal(hooks.worker.state.state === "ready" && hooks.worker.state.pid, result.pid);
    assert.match(result.node, /^v\d+\./);
  });

  it("fails a request still waiting when the worker dies, logs the exit, and starts again on the next ping", async () => {
    const { hooks } = await swarmboard();
    const before = await waitFor("the worker to be ready", () =>
      hooks.worker.state.state === "ready" ? hooks.worker.state : undefined,
    );
    // Stopped first, so the ping below is certainly still pending when the process is killed.
    process.kill(before.pid, "SIGSTOP");
    const pending = hooks.worker.ping();
    process.kill(before.pid, "SIGKILL");
    await assert.rejects(pending, (err: Error) => {
      assert.match(err.message, /^worker-exited: The Swarmboard worker exited \(signal SIGKILL\)/);
      return true;
    });
    await waitForLogLine(hooks, "the exit in the log", (l) =>
      l.includes(`(pid ${before.pid}) exited with signal SIGKILL`),
    );
    assert.equal(hooks.worker.state.state, "exited");

    const again = await vscode.commands.executeCommand<Ping | undefined>("swarmboard.pingWorker");
    assert.ok(again, "the worker did not start again");
    assert.notEqual(again.pid, before.pid);
    await waitFor("the new worker to be ready", () => hooks.worker.state.state === "ready");
  });
});
