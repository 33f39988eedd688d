// The shared worker's start lock on a real folder, with real processes racing for it: one server per version starts
// however many clients start one at the same moment, a stale lock (its process gone) is taken over, a live one is not;
// nor is a zombie's (a server SIGKILLed and not yet reaped) taken for a live holder.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { processAlive } from "../../../src/worker/server/serverFiles";
import { releaseStartLock, takeStartLock } from "../../../src/worker/server/startLock";
import type { ServerPaths } from "../../../src/core/server/serverPaths";
import { ownerLiveness, thisProcessOwner } from "../../../src/workspace/swarmRegistry";
import { processIdentity, psIdentity } from "../../../src/workspace/processAlive";

const startLock = path.resolve(__dirname, "../../../src/worker/server/startLock.js");

/** A pid that surely belongs to no process now: a child that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "0"]);
  assert.equal(child.status, 0);
  return child.pid!;
}

/**
 * A zombie: a child of `sleep` (which never reaps) killed. The shell forks the first sleep and execs into the second,
 * its parent. `stop` kills the parent too; init then reaps both.
 */
async function zombie(): Promise<{ pid: number; stop: () => void }> {
  const parent = spawn("sh", ["-c", "sleep 60 & echo $!; exec sleep 60"], { stdio: ["ignore", "pipe", "inherit"] });
  const pid = await new Promise<number>((resolve) =>
    parent.stdout.setEncoding("utf8").once("data", (line: string) => resolve(Number.parseInt(line, 10))),
  );
  // Killed while the shell still runs (before its exec), the child would be reaped by it and never be a zombie.
  const deadline = Date.now() + 10_000;
  while (readFileSync(`/proc/${parent.pid}/comm`, "utf8").trim() !== "sleep") {
    assert.ok(Date.now() < deadline, "the shell became the second sleep");
    await new Promise((r) => setTimeout(r, 20));
  }
  process.kill(pid, "SIGKILL");
  while (!/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"))) {
    assert.ok(Date.now() < deadline, "the killed sleep became a zombie");
    await new Promise((r) => setTimeout(r, 20));
  }
  return { pid, stop: () => parent.kill("SIGKILL") };
}

/** A process that waits for "go" on stdin, tries the lock, prints whether it won and stays alive holding it. */
function racer(lockFile: string): { ready: Promise<void>; go: () => void; won: Promise<boolean>; stop: () => void } {
  const script = `
    const { takeStartLock } = require(${JSON.stringify(startLock)});
    process.stdout.write("ready\\n");
    process.stdin.once("data", () => {
      const won = takeStartLock({ infoFile: "unused" }, ${JSON.stringify(lockFile)});
      process.stdout.write(won ? "won\\n" : "lost\\n");
    });
    setInterval(() => undefined, 1000);`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["pipe", "pipe", "inherit"] });
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    lines.push(...chunk.split("\n").filter(Boolean));
    waiters.splice(0).forEach((wake) => wake());
  });
  const line = (index: number): Promise<string> =>
    new Promise((resolve) => {
      const look = (): void => (lines.length > index ? resolve(lines[index]!) : void waiters.push(look));
      look();
    });
  return {
    ready: line(0).then(() => undefined),
    go: () => child.stdin.write("go\n"),
    won: line(1).then((answer) => answer === "won"),
    stop: () => child.kill("SIGKILL"),
  };
}

/** What this process writes into the lock: its pid and its identity. */
const ours = () => `${process.pid}\n${processIdentity(process.pid) ?? ""}`;

describe("the shared worker's start lock", function () {
  this.timeout(60_000);
  let dir: string;
  let lockFile: string;
  const paths = { infoFile: "unused" } as ServerPaths;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "swarmboard-lock-"));
    lockFile = path.join(dir, "server.json.lock");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is taken once, refused while its holder lives, and released only by its holder", () => {
    assert.equal(takeStartLock(paths, lockFile), true);
    assert.equal(readFileSync(lockFile, "utf8"), ours());
    assert.equal(takeStartLock(paths, lockFile), false, "a live holder (this process) keeps it");
    releaseStartLock(paths, lockFile);
    assert.equal(takeStartLock(paths, lockFile), true);
  });

  it("takes over a lock whose process is gone, and one left empty or unreadable as a pid", () => {
    writeFileSync(lockFile, String(deadPid()));
    assert.equal(takeStartLock(paths, lockFile), true);
    assert.equal(readFileSync(lockFile, "utf8"), ours());
    writeFileSync(lockFile, "");
    assert.equal(takeStartLock(paths, lockFile), true);
  });

  it("takes over a lock whose holder is a zombie (signal 0 still finds it): no zombie is alive", async function () {
    if (process.platform !== "linux") this.skip();
    const z = await zombie();
    try {
      assert.doesNotThrow(() => process.kill(z.pid, 0), "signal 0 finds the zombie");
      assert.equal(processAlive(z.pid), false);
      assert.equal(processAlive(process.pid), true);
      assert.equal(ownerLiveness({ pid: z.pid, host: os.hostname() }), "dead", "a swarm record's owner too");
      writeFileSync(lockFile, String(z.pid));
      assert.equal(takeStartLock(paths, lockFile), true);
      assert.equal(readFileSync(lockFile, "utf8"), ours());
    } finally {
      z.stop();
    }
  });

  it("takes over a lock whose pid now names another process (a reboot, pids wrapped), and keeps an older lock's", function () {
    const identity = processIdentity(process.pid);
    if (identity === undefined) this.skip(); // Windows: the pid alone decides
    assert.match(identity!, process.platform === "linux" ? /^[0-9a-f-]*:\d+$/ : /^ps:.+\d$/);
    assert.equal(processIdentity(process.pid), identity, "the same process, the same identity");
    // A live pid (pid 1 runs on every system) written by a process that was not it: the lock is stale.
    assert.notEqual(processIdentity(1), identity);
    writeFileSync(lockFile, `1\n${identity}`);
    assert.equal(takeStartLock(paths, lockFile), true);
    assert.equal(readFileSync(lockFile, "utf8"), ours());
    // The holder itself, named with its identity, keeps it; so does a live pid in an older server's lock (no identity).
    assert.equal(takeStartLock(paths, lockFile), false);
    writeFileSync(lockFile, "1");
    assert.equal(takeStartLock(paths, lockFile), false);
    // A swarm record's owner: dead once its pid names another process.
    assert.equal(ownerLiveness({ pid: 1, host: os.hostname(), started: identity! }), "dead");
    assert.equal(ownerLiveness(thisProcessOwner()), "alive");
    assert.equal(thisProcessOwner().started, identity);
  });

  it("tells processes apart by ps's start time where /proc has none (macOS, the BSDs)", function () {
    const ps = spawnSync("ps", ["-o", "lstart=", "-p", String(process.pid)], { encoding: "utf8" });
    if (ps.error) this.skip(); // no ps on this system (a slim container); macOS and the BSDs always have one
    const mine = psIdentity(process.pid);
    assert.match(mine ?? "", /^ps:\S.*\d$/, "this process's start time");
    assert.equal(psIdentity(process.pid), mine);
    assert.notEqual(psIdentity(1), mine, "pid 1 started before this process");
    assert.equal(psIdentity(deadPid()), undefined, "no identity for a pid that runs no process");
  });

  it("clears a steal lock left by a racer that died while removing a stale lock, and yields to a live one's", () => {
    const steal = `${lockFile}.steal`;
    writeFileSync(lockFile, String(deadPid()));
    writeFileSync(steal, String(deadPid()));
    assert.equal(takeStartLock(paths, lockFile), true, "the dead stealer's steal lock does not block forever");
    assert.equal(readFileSync(lockFile, "utf8"), ours());
    assert.equal(existsSync(steal), false);
    // A live racer (this process, as far as the lock can tell) is removing the stale lock: it wins, not us.
    writeFileSync(lockFile, String(deadPid()));
    writeFileSync(steal, ours());
    assert.equal(takeStartLock(paths, lockFile), false);
    assert.equal(readFileSync(steal, "utf8"), ours(), "the live stealer's steal lock is left alone");
  });

  it("lets exactly one of eight processes racing for a stale lock win, round after round", async () => {
    for (let round = 0; round < 10; round++) {
      writeFileSync(lockFile, String(deadPid()));
      const racers = Array.from({ length: 8 }, () => racer(lockFile));
      try {
        // Every racer started and waits on stdin; then they are released together.
        await Promise.all(racers.map((r) => r.ready));
        racers.forEach((r) => r.go());
        const results = await Promise.all(racers.map((r) => r.won));
        assert.equal(results.filter(Boolean).length, 1, `round ${round}: winners ${results.join(",")}`);
      } finally {
        racers.forEach((r) => r.stop());
      }
      rmSync(lockFile, { force: true });
    }
  });
});
