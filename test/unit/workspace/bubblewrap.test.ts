// Done-when: inside bubblewrap a write outside the worktree and a network connection both fail.
// This test needs a usable bwrap (Debian package `bubblewrap`, and user namespaces allowed). Where it is
// missing or cannot build its sandbox the test FAILS with the probe's reason: it never passes silently. (The
// product itself treats an unusable bwrap as absent and asks about every command; commandRunner.test.ts checks
// that.) Each escape is also run once without the sandbox, as a control that the escape would have worked.
import assert from "node:assert/strict";
import { callTool } from "./callTool";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { approveAllApprover } from "../../../src/workspace/approvals";
import { probeBubblewrap, type BubblewrapProbe } from "../../../src/workspace/bubblewrap";
import { homeToolchainDirs } from "../../../src/workspace/homeToolchains";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { cleanRepo, removeDir, tempDir } from "./gitFixture";

const unsandboxed: BubblewrapProbe = { usable: false, installed: false, reason: "control run without the sandbox" };

describe("workspace: commands inside bubblewrap", function () {
  this.timeout(60_000);
  let repoDir = "";
  let stateDir = "";
  let probe: BubblewrapProbe;
  let sandboxed: AgentWorkspace;
  let plain: AgentWorkspace;

  before(async () => {
    probe = await probeBubblewrap();
    if (!probe.usable) {
      assert.fail(
        `bubblewrap is needed here and is not usable: ${probe.reason}. Install it (apt-get install -y bubblewrap) where user namespaces are allowed.`,
      );
    }
    repoDir = cleanRepo();
    stateDir = tempDir("state");
    const repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "bw" });
    await repo.start({ includeUncommitted: false });
    const policy = new CommandPolicy({ allow: [], ask: [], deny: [] });
    // Approve everything the policy asks about: this test is about what the sandbox stops, not the policy.
    sandboxed = await AgentWorkspace.open(repo, "a1", { policy, approver: approveAllApprover, sandbox: probe });
    plain = await AgentWorkspace.open(repo, "a2", { policy, approver: approveAllApprover, sandbox: unsandboxed });
  });
  after(() => {
    removeDir(repoDir);
    removeDir(stateDir);
  });

  async function run(ws: AgentWorkspace, command: string) {
    const out = await callTool(ws, "run_command", { command, timeoutMs: 20_000 });
    assert.ok(out.ok, JSON.stringify(out));
    assert.ok(out.result.ran, out.result.reason);
    return out.result;
  }

  it("writes inside the worktree (control)", async () => {
    const res = await run(sandboxed, "echo inside > made-inside.txt && cat made-inside.txt");
    assert.equal(res.sandboxed, true);
    assert.equal(res.exitCode, 0, res.output);
    assert.equal(readFileSync(path.join(sandboxed.worktree.path, "made-inside.txt"), "utf8"), "inside\n");
    const status = await run(sandboxed, "git status --short && git log --oneline -1");
    assert.equal(status.exitCode, 0, `git should work read-only inside the sandbox: ${status.output}`);
    assert.match(status.output, /\?\? made-inside\.txt/);
  });

  const escapes: Array<[string, (ws: AgentWorkspace) => string]> = [
    ["the user's checkout", () => path.join(repoDir, "pwned.txt")],
    ["the repository's hooks", () => path.join(repoDir, ".git", "hooks", "pre-commit")],
    ["another agent's worktree", () => path.join(plain.worktree.path, "pwned.txt")],
    ["a system folder", () => "/usr/local/swarmboard-pwned.txt"],
    ["the worktree's own .git link", (ws) => path.join(ws.worktree.path, ".git")],
  ];
  for (const [name, target] of escapes) {
    it(`cannot write to ${name}`, async () => {
      const file = target(sandboxed);
      const before = existsSync(file) ? readFileSync(file, "utf8") : null;
      // A program writes the file (not a shell redirect), so the policy does not see the target: only the sandbox stands.
      const res = await run(sandboxed, `node -e "require('fs').writeFileSync(process.argv[1], 'pwned')" '${file}'`);
      assert.notEqual(res.exitCode, 0, `the write succeeded inside the sandbox: ${res.output}`);
      assert.equal(existsSync(file) ? readFileSync(file, "utf8") : null, before, `${file} changed on the host`);
    });
  }

  it("the same write outside succeeds without the sandbox (control)", async () => {
    const file = path.join(repoDir, "control.txt");
    const res = await run(plain, `node -e "require('fs').writeFileSync(process.argv[1], 'control')" '${file}'`);
    assert.equal(res.exitCode, 0, res.output);
    assert.equal(readFileSync(file, "utf8"), "control");
    rmSync(file);
  });

  it("cannot open a network connection, even to the host's loopback", async () => {
    let connections = 0;
    const server = net.createServer((s) => {
      connections++;
      s.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    const connect = `node -e "require('net').connect(${port},'127.0.0.1').on('connect',()=>process.exit(0)).on('error',(e)=>{console.log(e.code);process.exit(3)})"`;
    try {
      const inside = await run(sandboxed, connect);
      assert.notEqual(inside.exitCode, 0, `connected from inside the sandbox: ${inside.output}`);
      const bashTcp = await run(sandboxed, `echo hi > /dev/tcp/127.0.0.1/${port}`);
      assert.notEqual(bashTcp.exitCode, 0, bashTcp.output);
      const outsideDns = await run(
        sandboxed,
        `node -e "require('dns').lookup('example.com',(e)=>process.exit(e?3:0))"`,
      );
      assert.notEqual(outsideDns.exitCode, 0, outsideDns.output);
      assert.equal(connections, 0, "the server saw a connection from the sandbox");
      const control = await run(plain, connect);
      assert.equal(control.exitCode, 0, `control: ${control.output}`);
      assert.equal(connections, 1, "control connection reached the server");
    } finally {
      server.close();
    }
  });

  it("hides the home folder and the worker's secrets", async () => {
    process.env.SWARMBOARD_TEST_API_TOKEN = "tok-123";
    try {
      const env = await run(sandboxed, "env");
      assert.match(env.output, /PATH=/);
      assert.doesNotMatch(env.output, /tok-123/);
      const home = await run(sandboxed, `ls -A '${os.homedir()}'`);
      assert.equal(home.exitCode, 0, home.output);
      // Only the toolchains on PATH under the home show (homeToolchains.ts), nothing else of it.
      const toolchains = new Set(
        [path.dirname(path.dirname(process.execPath)), ...(process.env.PATH ?? "").split(":")]
          .filter((e) => path.isAbsolute(e))
          .flatMap((e) => homeToolchainDirs(path.normalize(e), os.homedir()))
          .map((d) => path.relative(os.homedir(), d).split(path.sep)[0]),
      );
      const shown = home.output.split("\n").filter(Boolean);
      assert.deepEqual(
        shown.filter((n) => !toolchains.has(n)),
        [],
        `the home folder is visible inside the sandbox: ${home.output}`,
      );
    } finally {
      delete process.env.SWARMBOARD_TEST_API_TOKEN;
    }
  });

  it("shows no token from a submodule's or a worktree's git config", async () => {
    const gitDir = path.join(repoDir, ".git");
    const token = "ghp_plantedSubmoduleToken0123456789";
    const planted = [
      path.join(gitDir, "modules", "sub", "config"),
      path.join(gitDir, "modules", "sub", "modules", "nested", "config"),
      path.join(gitDir, "config.worktree"),
      path.join(gitDir, "worktrees", readdirSync(path.join(gitDir, "worktrees"))[0], "config.worktree"),
    ];
    for (const file of planted) {
      mkdirSync(path.dirname(file), { recursive: true });
      const url = `https://x-access-token:${token}@github.com/o/r.git`;
      writeFileSync(file, `[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = ${url}\n`);
    }
    const printAll = `node -e "for (const f of process.argv.slice(1)) console.log(f, require('fs').readFileSync(f, 'utf8'))" ${planted.map((f) => `'${f}'`).join(" ")}`;
    const res = await run(sandboxed, printAll);
    assert.equal(res.exitCode, 0, res.output);
    assert.equal(res.output.match(/repositoryformatversion/g)?.length, planted.length, `each read: ${res.output}`);
    assert.doesNotMatch(res.output, new RegExp(token), "a token in a git config is visible in the sandbox");
    const control = await run(plain, printAll);
    assert.match(control.output, new RegExp(token), "control: outside the sandbox the token is there");
    for (const file of planted) rmSync(file);
  });

  it("binds only the /etc files toolchains need: no shadow, gshadow, sudoers; node, npm, git and python still run", async () => {
    assert.ok(existsSync("/etc/shadow"), "control: the host has /etc/shadow");
    const readShadow = `node -e "process.stdout.write(require('fs').readFileSync('/etc/shadow', 'utf8').slice(0, 5))"`;
    const inside = await run(sandboxed, readShadow);
    assert.notEqual(inside.exitCode, 0, `read /etc/shadow inside the sandbox: ${inside.output}`);
    const etc = await run(sandboxed, "ls -A /etc");
    assert.equal(etc.exitCode, 0, etc.output);
    const listed = etc.output.split("\n");
    for (const name of ["shadow", "gshadow", "sudoers", "gitconfig", "passwd"])
      assert.equal(
        listed.includes(name),
        name === "passwd",
        `/etc/${name} ${name === "passwd" ? "missing" : "visible"}`,
      );
    const python = existsSync("/usr/bin/python3")
      ? " && python3 -c 'import ssl, json, socket; print(ssl.OPENSSL_VERSION)'"
      : "";
    const tools = await run(sandboxed, `node --version && npm --version && git --version && whoami${python}`);
    assert.equal(tools.exitCode, 0, tools.output);
    if (process.getuid?.() === 0) {
      const host = execFileSync("sh", ["-c", "head -c 5 /etc/shadow"], { encoding: "utf8" });
      assert.ok(host.length > 0, "control: root reads /etc/shadow on the host");
    }
  });
});
