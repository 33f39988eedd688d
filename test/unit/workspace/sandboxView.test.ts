// Done-when: a sandboxed command sees only its worktree, the git dir (its config without remotes or credentials),
// the toolchain, and a private home and tmp; it sees none of ten secret variables planted in the worker's
// environment (unsandboxed commands neither); it cannot create protected names in its worktree. Real bubblewrap,
// a real repository; a missing or unusable bwrap fails the test with the reason.
import { callTool } from "./callTool";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { approveAllApprover } from "../../../src/workspace/approvals";
import { probeBubblewrap, type BubblewrapProbe } from "../../../src/workspace/bubblewrap";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { cleanRepo, git, removeDir, tempDir } from "./gitFixture";

/**
 * A program reads the file, its name given in two halves: the policy denies naming these files, and this test is
 * about what the sandbox shows when a command gets past the policy (which a program that builds names can).
 */
const readWithNode = (file: string) => {
  const cut = path.dirname(file).length - 1;
  return `node -e "process.stdout.write(require('fs').readFileSync(process.argv[1]+process.argv[2]))" '${file.slice(0, cut)}' '${file.slice(cut)}'`;
};

const SECRETS: Record<string, string> = {
  GH_PAT: "sv-gh-pat",
  GITHUB_PAT: "sv-github-pat",
  DATABASE_URL: "postgres://u:sv-db-url@h/db",
  PGPASS: "sv-pgpass",
  MY_PASSPHRASE: "sv-passphrase",
  OPENAI_API_KEY: "sv-openai",
  AWS_SECRET_ACCESS_KEY: "sv-aws",
  NPM_TOKEN: "sv-npm",
  SENTRY_DSN: "https://sv-sentry@example.invalid/1",
  STRIPE_LIVE: "sv-stripe",
};

describe("workspace: what a sandboxed command can see", function () {
  this.timeout(60_000);
  let repoDir = "";
  let stateDir = "";
  let fakeHome = "";
  const realHome = process.env.HOME;
  let sandboxed: AgentWorkspace;
  let plain: AgentWorkspace;

  before(async () => {
    const probe = await probeBubblewrap();
    if (!probe.usable) assert.fail(`bubblewrap is needed here and is not usable: ${probe.reason}`);
    repoDir = cleanRepo();
    git(repoDir, "remote", "add", "origin", "https://user:sv-remote-token@example.invalid/r.git");
    writeFileSync(path.join(repoDir, ".gitignore"), "build/\n*.log\n.env*\n");
    writeFileSync(path.join(repoDir, ".env"), "API=sv-dotenv\n");
    stateDir = tempDir("state");
    fakeHome = tempDir("home");
    mkdirSync(path.join(fakeHome, ".ssh"));
    writeFileSync(path.join(fakeHome, ".ssh", "id_rsa"), "sv-private-key\n");
    process.env.HOME = fakeHome;
    Object.assign(process.env, SECRETS);
    const repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "sv" });
    await repo.start({ includeUncommitted: false });
    const policy = new CommandPolicy({ allow: [], ask: [], deny: [] });
    sandboxed = await AgentWorkspace.open(repo, "a1", { policy, approver: approveAllApprover, sandbox: probe });
    const none: BubblewrapProbe = { usable: false, installed: true, reason: "the unsandboxed case" };
    plain = await AgentWorkspace.open(repo, "a2", { policy, approver: approveAllApprover, sandbox: none });
  });
  after(() => {
    process.env.HOME = realHome;
    for (const k of Object.keys(SECRETS)) delete process.env[k];
    for (const dir of [repoDir, stateDir, fakeHome]) removeDir(dir);
  });

  async function run(ws: AgentWorkspace, command: string) {
    const out = await callTool(ws, "run_command", { command, timeoutMs: 20_000 });
    assert.ok(out.ok && out.result.ran, JSON.stringify(out));
    return out.result;
  }

  it("passes none of ten secret variables, sandboxed or not, not even through /proc/self/environ", async () => {
    for (const ws of [sandboxed, plain]) {
      const res = await run(ws, `env; ${readWithNode("/proc/self/environ")}`);
      assert.match(res.output, /PATH=/);
      for (const value of Object.values(SECRETS)) assert.ok(!res.output.includes(value), `${value} leaked`);
    }
    const plainHome = await run(plain, "echo HOME=$HOME");
    assert.doesNotMatch(plainHome.output, new RegExp(`HOME=${fakeHome}\\s`), "the command got the real home");
    const sandboxHome = await run(sandboxed, "ls -A ~");
    assert.equal(sandboxHome.output.trim(), "", "the sandbox's home is an empty private one");
  });

  it("does not show the user's checkout, its ignored .env, the real home's keys or other worktrees", async () => {
    for (const file of [
      path.join(repoDir, "README.md"),
      path.join(repoDir, ".env"),
      path.join(fakeHome, ".ssh", "id_rsa"),
      path.join(plain.worktree.path, "README.md"),
    ]) {
      const res = await run(sandboxed, readWithNode(file));
      assert.notEqual(res.exitCode, 0, `${file} was readable: ${res.output}`);
      assert.doesNotMatch(res.output, /sv-dotenv|sv-private-key|# fixture/);
    }
    const control = await run(plain, readWithNode(path.join(repoDir, ".env")));
    assert.match(control.output, /sv-dotenv/, "control: the unsandboxed approved command can read it");
  });

  it("shows the git dir's config without remotes or credentials, and git still works", async () => {
    const res = await run(
      sandboxed,
      // node reads the file (the policy denies a plain `cat` of it): this is about what the sandbox shows.
      `${readWithNode(path.join(repoDir, ".git", "config"))}; git log --oneline -1`,
    );
    assert.doesNotMatch(res.output, /sv-remote-token|origin/);
    assert.match(res.output, /repositoryformatversion/);
    assert.match(res.output, /second/);
  });

  it("still runs, and shows nothing of its target, when a protected name is a symlink", async () => {
    // Planted on the host, as an approved unsandboxed command could: `.devcontainer` -> the real home. bwrap
    // refuses to mount onto a symlink, so binding it read-only would make every command in the worktree fail.
    const wt = sandboxed.worktree.path;
    rmSync(path.join(wt, ".devcontainer"), { recursive: true, force: true });
    symlinkSync(fakeHome, path.join(wt, ".devcontainer"));
    try {
      const ok = await run(sandboxed, "echo still-runs");
      assert.equal(ok.exitCode, 0, ok.output);
      assert.match(ok.output, /still-runs/);
      const res = await run(sandboxed, readWithNode(path.join(wt, ".devcontainer", ".ssh", "id_rsa")));
      assert.notEqual(res.exitCode, 0, res.output);
      assert.doesNotMatch(res.output, /sv-private-key/);
    } finally {
      rmSync(path.join(wt, ".devcontainer"));
    }
  });

  it("cannot create .vscode or .devcontainer in its worktree", async () => {
    const wt = sandboxed.worktree.path;
    const res = await run(
      sandboxed,
      // A program makes them (not a shell redirect), so the policy does not see the names: only the sandbox stands.
      `node -e "const fs=require('fs');for(const d of ['.vs'+'code','.dev'+'container/x'])try{fs.mkdirSync(d,{recursive:true})}catch(e){console.log(e.code)}fs.writeFileSync('.vs'+'code/settings.json','{}')"`,
    );
    assert.notEqual(res.exitCode, 0, res.output);
    assert.equal(existsSync(path.join(wt, ".vscode", "settings.json")), false);
    assert.equal(existsSync(path.join(wt, ".devcontainer", "devcontainer.json")), false);
    assert.equal(existsSync(path.join(wt, ".devcontainer", "x")), false);
    const ok = await run(sandboxed, "echo fine > made.txt");
    assert.equal(ok.exitCode, 0, `control: an ordinary write works: ${ok.output}`);
  });
});
