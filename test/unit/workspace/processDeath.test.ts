// Done-when: after SIGKILL of the worker, no process of a running command (sandboxed, or approved and run without
// the sandbox), not even one in its own session (`setsid`) or double-forked, is alive 5 s later. A stand-in worker (commandChild.ts) runs both kinds; processes are found by a
// token in their command line in /proc, which shows the sandbox's processes too.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { processesWith, sleep } from "../../fixtures/processes/processTable";
import path from "node:path";
import type { BubblewrapProbe } from "../../../src/workspace/bubblewrap";
import { runShellCommand } from "../../../src/workspace/commandRunner";
import { removeDir, tempDir } from "./gitFixture";

/** Pids whose command line holds `token`. */
describe("workspace: commands die with the worker", function () {
  this.timeout(60_000);
  let dir = "";
  before(() => (dir = tempDir("die")));
  after(() => removeDir(dir));

  it("leaves no process of a sandboxed or an unsandboxed command alive 5 s after a SIGKILL", async () => {
    const script = path.join(__dirname, "commandChild.js");
    assert.ok(existsSync(script), `${script} is missing: run npm run compile:tests first`);
    const token = `${1000 + Math.floor(Math.random() * 8000)}.${process.pid}`;
    const child = spawn(process.execPath, [script, dir, token], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const started = () => ["sandboxed", "plain"].every((n) => existsSync(path.join(dir, n, "started")));
    for (let i = 0; i < 300 && !started() && child.exitCode === null; i++) await sleep(100);
    assert.ok(started(), `the commands did not start: ${stderr}`);
    for (let i = 0; i < 50 && processesWith(token).length < 8; i++) await sleep(100);
    assert.ok(processesWith(token).length >= 8, "control: both commands' four sleeps are running before the kill");
    child.kill("SIGKILL");
    await sleep(5_000);
    const alive = processesWith(token);
    for (const pid of alive) process.kill(pid, "SIGKILL");
    assert.deepEqual(alive, [], "processes of a command outlived the worker's SIGKILL");
  });

  it("ends what a command left running in the background when the command returns", async () => {
    const token = `${1000 + Math.floor(Math.random() * 8000)}.${process.pid}1`;
    const plain: BubblewrapProbe = { usable: false, installed: true, reason: "the unsandboxed case" };
    const out = await runShellCommand({
      command: `sleep ${token} & setsid sleep ${token} & echo returned`,
      cwd: dir,
      sandbox: plain,
      timeoutMs: 60_000,
      maxOutputBytes: 10_000,
    });
    assert.equal(out.timedOut, false, "the background sleep held the command until its timeout");
    assert.equal(out.exitCode, 0, out.output);
    assert.match(out.output, /returned/);
    await sleep(200);
    const alive = processesWith(token);
    for (const pid of alive) process.kill(pid, "SIGKILL");
    assert.deepEqual(alive, [], "the background process outlived its command");
  });
});
