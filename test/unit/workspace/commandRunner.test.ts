// run_command around the sandbox: without bubblewrap every command needs approval (approvals go out as events;
// the CLI's default denies), a denied command never runs even when approvals are granted, and a command that
// runs gets a timeout, capped output and an environment without secrets.
import assert from "node:assert/strict";
import { callTool } from "./callTool";
import { existsSync } from "node:fs";
import path from "node:path";
import { approvalRequestSchema } from "../../../src/protocol/userReview";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { approveAllApprover, EventApprover, type ApprovalRequest } from "../../../src/workspace/approvals";
import { probeBubblewrap, type BubblewrapProbe } from "../../../src/workspace/bubblewrap";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { commandEnv } from "../../../src/workspace/commandEnv";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { cleanRepo, removeDir, tempDir } from "./gitFixture";

const noSandbox: BubblewrapProbe = { usable: false, installed: false, reason: "bubblewrap (bwrap) is not installed" };
const policy = new CommandPolicy({
  allow: ["git status", "ls", "echo", "sleep", "yes", "head", "env"],
  ask: [],
  deny: ["rm -rf"],
});

describe("workspace: running commands", function () {
  this.timeout(60_000);
  let repoDir = "";
  let stateDir = "";
  let repo: SwarmRepository;

  before(async () => {
    repoDir = cleanRepo();
    stateDir = tempDir("state");
    repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "run" });
    await repo.start({ includeUncommitted: false });
  });
  after(() => {
    removeDir(repoDir);
    removeDir(stateDir);
  });

  it("without a sandbox asks about every command, and the default approver denies", async () => {
    const ws = await AgentWorkspace.open(repo, "a1", { policy, sandbox: noSandbox });
    const out = await callTool(ws, "run_command", { command: "echo hello > made.txt" });
    assert.ok(out.ok);
    assert.equal(out.result.ran, false);
    assert.match(out.result.reason, /no sandbox/);
    assert.equal(existsSync(path.join(ws.worktree.path, "made.txt")), false);
    const allowed = await callTool(ws, "run_command", { command: "git status" });
    assert.ok(allowed.ok && !allowed.result.ran, "even an allowed command needs approval without a sandbox");
  });

  it("on macOS and Windows (no bubblewrap there) asks about every command and says there is no sandbox on this platform", async () => {
    for (const platform of ["darwin", "win32"] as const) {
      const sandbox = await probeBubblewrap(platform);
      assert.equal(sandbox.usable, false);
      const ws = await AgentWorkspace.open(repo, `np-${platform}`, { policy, sandbox });
      const out = await callTool(ws, "run_command", { command: "git status" });
      assert.ok(out.ok && !out.result.ran, `${platform}: even an allowed command needs approval`);
      assert.match(out.result.reason, new RegExp(`no sandbox on this platform \\(${platform}\\)`));
      assert.doesNotMatch(out.result.reason, /Debian/, `${platform}: no advice to install a Linux package`);
    }
  });

  it("sends approval requests as events and runs on a yes", async () => {
    const approver = new EventApprover(10_000);
    const seen: ApprovalRequest[] = [];
    const sub = approver.onRequest((req) => {
      seen.push(req);
      setImmediate(() => approver.answer(req.id, req.command.startsWith("echo")));
    });
    const ws = await AgentWorkspace.open(repo, "a2", { policy, sandbox: noSandbox, approver });
    const yes = await callTool(ws, "run_command", { command: "echo approved" });
    assert.ok(yes.ok && yes.result.ran && yes.result.exitCode === 0, JSON.stringify(yes));
    assert.match(yes.result.output, /approved/);
    const no = await callTool(ws, "run_command", { command: "ls" });
    assert.ok(no.ok && !no.result.ran);
    sub.dispose();
    assert.equal(seen.length, 2);
    for (const req of seen) approvalRequestSchema.parse(req);
    assert.equal(seen[0].agent, "a2");
    assert.equal(seen[0].cwd, ws.worktree.path);
    assert.ok(seen[0].reasons.some((r) => /no sandbox/.test(r)));
  });

  it("never runs a denied command, whatever the approver says", async () => {
    const ws = await AgentWorkspace.open(repo, "a3", { policy, sandbox: noSandbox, approver: approveAllApprover });
    const out = await callTool(ws, "run_command", { command: "ls && rm -rf src" });
    assert.ok(out.ok);
    assert.equal(out.result.decision, "deny");
    assert.equal(out.result.ran, false);
    assert.ok(existsSync(path.join(ws.worktree.path, "src")));
  });

  it("kills a command at its timeout and caps its output", async () => {
    const ws = await AgentWorkspace.open(repo, "a4", {
      policy,
      sandbox: noSandbox,
      approver: approveAllApprover,
      maxOutputBytes: 10_000,
    });
    const slow = await callTool(ws, "run_command", { command: "sleep 30", timeoutMs: 300 });
    assert.ok(slow.ok && slow.result.ran);
    assert.equal(slow.result.timedOut, true);
    const loud = await callTool(ws, "run_command", { command: "yes | head -c 200000" });
    assert.ok(loud.ok && loud.result.ran);
    assert.equal(loud.result.truncated, true);
    assert.ok(loud.result.output.length < 10_200);
    assert.match(loud.result.output, /cut: 190000 more bytes/);
  });

  it("gives commands an environment without secrets and with git hooks off", async () => {
    const env = commandEnv({
      PATH: "/usr/bin",
      HOME: "/h",
      GITHUB_TOKEN: "t",
      NPM_TOKEN: "t",
      OPENAI_API_KEY: "k",
      AWS_SECRET_ACCESS_KEY: "s",
      MY_SECRET: "s",
      SSH_AUTH_SOCK: "/s",
      BASH_ENV: "/x",
      LD_PRELOAD: "/x.so",
      GIT_DIR: "/elsewhere",
    });
    assert.deepEqual(
      Object.keys(env)
        .filter((k) => !k.startsWith("GIT_CONFIG") && !k.startsWith("GIT_OPTIONAL") && k !== "GIT_TERMINAL_PROMPT")
        .sort(),
      ["HOME", "PATH"],
    );
    assert.equal(env.GIT_CONFIG_KEY_0, "core.hooksPath");
    assert.equal(env.GIT_CONFIG_VALUE_0, "/dev/null");
    process.env.SWARMBOARD_TEST_SECRET = "hidden-value";
    try {
      const ws = await AgentWorkspace.open(repo, "a5", { policy, sandbox: noSandbox, approver: approveAllApprover });
      const out = await callTool(ws, "run_command", { command: "env" });
      assert.ok(out.ok && out.result.ran);
      assert.doesNotMatch(out.result.output, /hidden-value/);
    } finally {
      delete process.env.SWARMBOARD_TEST_SECRET;
    }
  });
});
