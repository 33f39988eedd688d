// The real worker bundle (dist/worker/main.js) in a real child process, over real IPC: it announces itself,
// answers ping, and exits when its parent goes away, so a crashed VS Code never leaves a worker behind.
import assert from "node:assert/strict";
import { fork, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { pingMethod, workerReadyNotification } from "../../../src/protocol/workerRpc";
import { RpcPeer } from "../../../src/core/rpc/rpcPeer";
import { ChildProcessTransport } from "../../../src/host/childProcessTransport";
// An exited process left unreaped (a zombie, in a container without init) counts as gone.
import { processAlive as isAlive } from "../../../src/workspace/processAlive";

const workerScript = path.resolve(__dirname, "../../../../dist/worker/main.js");

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

describe("worker process over IPC", function () {
  this.timeout(20_000);
  const children: ChildProcess[] = [];

  before(() => {
    if (!existsSync(workerScript)) throw new Error(`${workerScript} is missing: run \`npm run build\` first`);
  });

  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  });

  function start(): { child: ChildProcess; peer: RpcPeer; ready: Promise<{ pid: number; version: string }> } {
    const child = fork(workerScript, [], { stdio: ["ignore", "inherit", "inherit", "ipc"], serialization: "json" });
    children.push(child);
    const peer = new RpcPeer(new ChildProcessTransport(child, (err) => assert.fail(err)));
    const ready = new Promise<{ pid: number; version: string }>((resolve) =>
      peer.onNotification(workerReadyNotification, resolve),
    );
    return { child, peer, ready };
  }

  it("says it is ready and answers ping with its own pid", async () => {
    const { child, peer, ready } = start();
    assert.equal((await ready).pid, child.pid);
    const pong = await peer.request(pingMethod, { nonce: "ipc-1" });
    assert.equal(pong.nonce, "ipc-1");
    assert.equal(pong.pid, child.pid);
    assert.equal(pong.node, process.version);
    peer.dispose();
  });

  it("exits cleanly when its parent closes the channel", async () => {
    const { child, peer, ready } = start();
    await ready;
    child.disconnect();
    assert.deepEqual(await exited(child), { code: 0, signal: null });
    peer.dispose();
  });

  it("exits when its parent is killed", async () => {
    // A parent that forks the worker, prints the worker's pid, and then waits to be killed.
    const script = `const c = require("child_process").fork(${JSON.stringify(workerScript)}, [], { stdio: "ignore" });
      c.once("message", () => console.log(c.pid)); setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    children.push(parent);
    const workerPid = await new Promise<number>((resolve) =>
      parent.stdout?.once("data", (d: Buffer) => resolve(Number(String(d).trim()))),
    );
    assert.ok(isAlive(workerPid));
    parent.kill("SIGKILL");
    await exited(parent);
    const deadline = Date.now() + 10_000;
    while (isAlive(workerPid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(isAlive(workerPid), false, `worker ${workerPid} outlived its killed parent`);
  });

  it("refuses to run without an IPC channel, saying why", () => {
    const run = spawnSync(process.execPath, [workerScript], {
      encoding: "utf8",
      timeout: 60_000,
      killSignal: "SIGKILL",
    });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /must be started by its parent with an IPC channel/);
  });
});
