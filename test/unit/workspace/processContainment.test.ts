// Done-when: a command the person approved to run without the sandbox keeps their files and network but runs in
// its own pid namespace: a `setsid` child no longer stretches run_command's timeout nor outlives it, and
// `ps eww -A` or /proc/*/environ show no other process's environment. Needs bwrap able to make a pid namespace:
// where it cannot, the test FAILS with the probe's reason (it never passes silently). Where no containment exists,
// the command runs as before and the approval prompt says so (the control at the end).
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { processesWith, sleep } from "../../fixtures/processes/processTable";
import path from "node:path";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { EventApprover, approveAllApprover, type ApprovalRequest } from "../../../src/workspace/approvals";
import type { BubblewrapProbe } from "../../../src/workspace/bubblewrap";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { probeContainment, type ContainmentProbe } from "../../../src/workspace/processContainment";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { callTool } from "./callTool";
import { cleanRepo, removeDir, tempDir } from "./gitFixture";

const noSandbox: BubblewrapProbe = { usable: false, installed: false, reason: "the unsandboxed case" };
const uncontained: ContainmentProbe = { usable: false, reason: "none on this platform (test)" };
const policy = new CommandPolicy({ allow: [], ask: [], deny: [] });

/** Pids whose command line holds `token`. */
/**
 * Prints the planted variable from every process environment it can read (a program, so the command policy does
 * not see the paths; only that variable, so the output cap cannot hide it).
 */
const readAllEnvironments = `node -e "const fs=require('fs');for(const p of fs.readdirSync('/proc'))try{for(const v of fs.readFileSync('/proc/'+p+'/environ','utf8').split('\\0'))if(v.startsWith('PLANTED_'))console.log(v)}catch{}"`;

const token = () => `${1000 + Math.floor(Math.random() * 8000)}.${process.pid}${Math.floor(Math.random() * 100)}`;
describe("workspace: approved unsandboxed commands in their own process space", function () {
  this.timeout(60_000);
  let repoDir = "";
  let stateDir = "";
  let repo: SwarmRepository;
  let planted: ChildProcess | undefined;
  const secret = `planted-secret-${process.pid}-value`;

  before(async () => {
    const probe = await probeContainment();
    if (!probe.usable)
      assert.fail(
        `bwrap cannot make a pid namespace here: ${probe.reason}. Install bubblewrap (apt-get install -y bubblewrap).`,
      );
    repoDir = cleanRepo();
    stateDir = tempDir("state");
    repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "contain" });
    await repo.start({ includeUncommitted: false });
    // Another process of the person's, with a secret in its environment (as an editor or a shell holds one).
    planted = spawn("sleep", ["600"], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", PLANTED_TOKEN: secret } });
    await sleep(100);
  });
  after(() => {
    planted?.kill("SIGKILL");
    removeDir(repoDir);
    removeDir(stateDir);
  });

  it("ends a setsid child at the command's timeout, and nothing of it outlives the run", async () => {
    const ws = await AgentWorkspace.open(repo, "a1", { policy, sandbox: noSandbox, approver: approveAllApprover });
    const t = token();
    const run = callTool(ws, "run_command", { command: `setsid sleep ${t} & sleep ${t}`, timeoutMs: 2_000 });
    // Not a speed check: the guard is fifteen times the timeout; without containment the run waits ~1000 s.
    const guard = sleep(30_000).then(() => "still running 30 s after a 2 s timeout" as const);
    const out = await Promise.race([run, guard]);
    const alive = processesWith(t);
    for (const pid of alive) process.kill(pid, "SIGKILL");
    assert.notEqual(out, "still running 30 s after a 2 s timeout", "the setsid child stretched the timeout");
    if (typeof out === "string") return;
    assert.ok(out.ok && out.result.ran, JSON.stringify(out));
    assert.equal(out.result.timedOut, true);
    assert.deepEqual(alive, [], "a process of the command outlived it");
  });

  it("shows the command no other process's environment (ps eww -A, /proc/*/environ)", async () => {
    assert.ok(planted?.pid, "control: the planted process runs");
    const hostView = readFileSync(`/proc/${planted.pid}/environ`, "utf8");
    assert.ok(hostView.includes(secret), "control: the planted secret is in its environment on the host");
    const ws = await AgentWorkspace.open(repo, "a2", { policy, sandbox: noSandbox, approver: approveAllApprover });
    const command = `ps eww -A | grep -F PLANTED_TOKEN=; ${readAllEnvironments}; env | grep -c PATH=`;
    const out = await callTool(ws, "run_command", { command });
    assert.ok(out.ok && out.result.ran, JSON.stringify(out));
    assert.match(out.result.output, /^1$/m, "the command reads its own environment");
    assert.doesNotMatch(out.result.output, new RegExp(secret), "another process's environment is visible");
  });

  it("keeps the person's files: writes outside the worktree land on the host", async () => {
    const ws = await AgentWorkspace.open(repo, "a3", { policy, sandbox: noSandbox, approver: approveAllApprover });
    const file = path.join(stateDir, "written-outside.txt");
    const out = await callTool(ws, "run_command", { command: `echo outside > '${file}'` });
    assert.ok(out.ok && out.result.ran && out.result.exitCode === 0, JSON.stringify(out));
    assert.equal(readFileSync(file, "utf8"), "outside\n");
  });

  it("says in the prompt what outside the sandbox gives, and where no containment exists, says that too", async () => {
    const seen: ApprovalRequest[] = [];
    const approver = new EventApprover(10_000);
    approver.onRequest((req) => {
      seen.push(req);
      setImmediate(() => approver.answer(req.id, true));
    });
    const contained = await AgentWorkspace.open(repo, "a4", { policy, sandbox: noSandbox, approver });
    await callTool(contained, "run_command", { command: "true" });
    const plain = await AgentWorkspace.open(repo, "a5", {
      policy,
      sandbox: noSandbox,
      approver,
      containment: uncontained,
    });
    const out = await callTool(plain, "run_command", { command: readAllEnvironments });
    const line = (r: ApprovalRequest) => r.reasons.filter((x) => x.startsWith("outside the sandbox"));
    assert.equal(line(seen[0]).length, 1, seen[0].reasons.join("\n"));
    assert.match(line(seen[0])[0], /your files.*your network.*own process space/);
    assert.equal(line(seen[1]).length, 1, seen[1].reasons.join("\n"));
    assert.match(line(seen[1])[0], /no process containment here/);
    // Today's behaviour where there is none: the command runs, and it can read the planted environment.
    assert.ok(out.ok && out.result.ran, JSON.stringify(out));
    assert.match(out.result.output, new RegExp(secret), "control: without containment the planted secret is visible");
  });
});
