// Done-when of the workspace issue: a dirty user checkout (staged, unstaged, untracked and ignored files, a stash
// entry, hooks installed) is byte-identical after a swarm's git work, after that work is killed with SIGKILL in
// the middle, and after recovery, cleanup and discard.
import assert from "node:assert/strict";
import { callTool } from "./callTool";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { mergeProgress } from "../../../src/workspace/mergeProgress";
import { cleanupSwarm, discardSwarm, recoverSwarm } from "../../../src/workspace/swarmCleanup";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { diffSwarmBranch, listSwarmBranches } from "../../../src/workspace/swarmReview";
import { dirtyRepo, git, hookRan, removeDir, snapshotCheckout, tempDir } from "./gitFixture";

const policy = new CommandPolicy({ allow: [], ask: [], deny: [] });

async function expectOk(ws: AgentWorkspace, tool: string, args: unknown): Promise<void> {
  const out = await callTool(ws, tool, args);
  assert.ok(out.ok, `${tool} failed: ${out.ok ? "" : out.error.message}`);
}

/** Runs gitWorkChild until it has finished `ops` operations, then kills it with SIGKILL mid-work. */
function killMidWork(repo: string, stateDir: string, swarm: string, ops: number): Promise<number> {
  const script = path.join(__dirname, "gitWorkChild.js");
  assert.ok(existsSync(script), `${script} is missing: run npm run compile:tests first`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, repo, stateDir, swarm], { stdio: ["ignore", "pipe", "pipe"] });
    let seen = 0;
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.stdout.on("data", (c: Buffer) => {
      seen += (c.toString().match(/^op /gm) ?? []).length;
      if (seen >= ops && child.exitCode === null) child.kill("SIGKILL");
    });
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve(seen);
      else reject(new Error(`gitWorkChild exited by itself (code ${code}) before the kill: ${stderr}`));
    });
  });
}

describe("workspace: the user's checkout is never touched", function () {
  this.timeout(180_000);
  let repoDir = "";
  let stateDir = "";

  beforeEach(() => {
    repoDir = dirtyRepo();
    stateDir = tempDir("state");
  });
  afterEach(() => {
    removeDir(repoDir);
    removeDir(`${repoDir}.hook-ran`);
    removeDir(stateDir);
  });

  it("stays byte-identical through a swarm's git work, review and cleanup", async () => {
    const before = snapshotCheckout(repoDir);
    const repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "s1" });
    const state = await repo.userTreeState();
    assert.equal(state.dirty, true);
    assert.match(state.message, /Agents start from HEAD/);
    const started = await repo.start({ includeUncommitted: true });
    assert.notEqual(
      started.integrationSha,
      before.head.trim(),
      "the uncommitted state should be a commit on top of HEAD",
    );
    const tree = git(repoDir, "ls-tree", "-r", "--name-only", started.integrationSha);
    assert.match(tree, /src\/staged\.ts/);
    assert.match(tree, /notes\/untracked\.txt/);
    assert.doesNotMatch(tree, /build\/out\.js|debug\.log/, "ignored files must not be included");
    assert.match(git(repoDir, "show", `${started.integrationSha}:README.md`), /unstaged edit/);

    const agents = await Promise.all(["a1", "a2", "a3"].map((a) => AgentWorkspace.open(repo, a, { policy })));
    for (const ws of agents) {
      assert.ok(!ws.worktree.path.startsWith(repoDir), "worktrees live outside the user's tree");
      await expectOk(ws, "write_file", {
        path: `src/${ws.worktree.agent}.ts`,
        content: `export const id = "${ws.worktree.agent}";\n`,
      });
      await expectOk(ws, "edit_file", {
        path: "README.md",
        search: "# fixture",
        replace: `# fixture (${ws.worktree.agent} was here)`,
      });
      await expectOk(ws, "commit", { message: `work of ${ws.worktree.agent}` });
    }
    const first = await mergeProgress(repo, agents[0].worktree, { abort: false });
    assert.equal(first.status, "merged");
    // a2 edited the same README line: its conflict comes back as data and is aborted cleanly.
    const second = await mergeProgress(repo, agents[1].worktree, { abort: false });
    assert.equal(second.status, "conflict");
    assert.equal((await mergeProgress(repo, agents[1].worktree, { abort: true })).status, "aborted");
    assert.equal((await listSwarmBranches(repo)).length, 4);
    assert.match((await diffSwarmBranch(repo, agents[2].worktree.branch)).diff, /a3 was here/);
    assert.equal(
      (await diffSwarmBranch(repo, agents[0].worktree.branch)).diff,
      "",
      "a merged branch brings nothing new",
    );
    assert.deepEqual(snapshotCheckout(repoDir), before, "after the swarm's git work");

    const report = await cleanupSwarm(repo);
    assert.deepEqual(report.deletedBranches, ["swarmboard/s1/a1"], "only the merged agent branch goes");
    assert.deepEqual(report.keptBranches.map((b) => b.branch).sort(), ["swarmboard/s1/a2", "swarmboard/s1/a3"]);
    assert.deepEqual(snapshotCheckout(repoDir), before, "after cleanup");
    await discardSwarm(repo);
    assert.equal(git(repoDir, "for-each-ref", "refs/heads/swarmboard/"), "");
    assert.deepEqual(snapshotCheckout(repoDir), before, "after discard");
    assert.equal(hookRan(repoDir), false, "no git hook of the user's repository may run");
  });

  it("stays byte-identical after the git work is killed with SIGKILL, and the swarm recovers", async () => {
    const before = snapshotCheckout(repoDir);
    // Three runs, each killed at a different point; each new run recovers from the one before.
    for (const ops of [7, 26, 15]) {
      assert.ok((await killMidWork(repoDir, stateDir, "s2", ops)) >= ops);
      assert.deepEqual(snapshotCheckout(repoDir), before, `right after a kill at operation ${ops}`);
    }

    const repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "s2" });
    await recoverSwarm(repo);
    // The swarm can carry on: every agent commits and merges again.
    for (const agent of ["a1", "a2", "a3", "a4"]) {
      const ws = await AgentWorkspace.open(repo, agent, { policy });
      const status = await callTool(ws, "git_status", {});
      assert.ok(status.ok);
      if (status.result.merging) await expectOk(ws, "merge_progress", { abort: true });
      await expectOk(ws, "write_file", { path: `after/${agent}.txt`, content: "after the kill\n" });
      // A write_file or commit killed half way leaves uncommitted files: the commit below takes them along.
      await expectOk(ws, "commit", { message: `after the kill: ${agent}` });
      const merged = await callTool(ws, "merge_progress", {});
      assert.ok(merged.ok && merged.result.status === "merged", JSON.stringify(merged));
    }
    assert.deepEqual(snapshotCheckout(repoDir), before, "after recovery and more work");
    const report = await cleanupSwarm(repo);
    assert.equal(report.keptWorktrees.length, 0);
    assert.equal(report.keptBranches.length, 0, "every agent merged, so no agent branch is kept");
    assert.ok(
      git(repoDir, "rev-parse", "swarmboard/s2/main").trim().length === 40,
      "the integration branch stays for review",
    );
    assert.deepEqual(snapshotCheckout(repoDir), before, "after cleanup");
    git(repoDir, "fsck", "--no-progress");
    assert.equal(hookRan(repoDir), false, "no git hook of the user's repository may run");
  });
});
