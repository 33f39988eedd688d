// The swarm's one shared read-only view and worktrees made on demand, on real git repositories: readers read the
// integration commit through one view and every change they try is refused with a read-only tool error; a writer
// reads the view until its first write (or claim) makes its own worktree; clean-up removes the view with the rest.
import assert from "node:assert/strict";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { repositoryProtectedPaths } from "../../../src/workspace/repositoryProtection";
import { checkoutBytes, readViewPath, SharedReadView } from "../../../src/workspace/sharedReadView";
import { cleanupSwarm, discardSwarm, recoverSwarm } from "../../../src/workspace/swarmCleanup";
import { planCleanUp } from "../../../src/workspace/swarmCleanUpPlan";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { callTool } from "./callTool";
import { cleanRepo, git, removeDir, tempDir, write } from "./gitFixture";

describe("workspace: shared read view and worktrees on demand", function () {
  this.timeout(120_000);
  let repoDir = "";
  let stateDir = "";
  let repo: SwarmRepository;
  let view: SharedReadView;
  const policy = new CommandPolicy({ allow: ["ls"], ask: [], deny: [] });

  beforeEach(async () => {
    repoDir = cleanRepo();
    stateDir = tempDir("state");
    repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "view" });
    await repo.start({ includeUncommitted: false });
    view = new SharedReadView(repo, await repositoryProtectedPaths(repo));
  });
  afterEach(() => {
    removeDir(repoDir);
    removeDir(stateDir);
  });

  const worktreeNames = () => (existsSync(repo.worktreeRoot) ? readdirSync(repo.worktreeRoot).sort() : []);

  it("readers share one view: they read, and every change is a read-only tool error", async () => {
    const readers = await Promise.all(
      ["agent-1", "agent-2", "synthesist-3"].map((id) => AgentWorkspace.onDemand(repo, id, "reader", view, { policy })),
    );
    for (const ws of readers) {
      const read = await callTool(ws, "read_file", { path: "src/app.ts" });
      assert.ok(read.ok && read.result.content.includes("answer = 42"), JSON.stringify(read));
    }
    assert.deepEqual(worktreeNames(), [".read-view"], "one view, no agent worktree");
    const attempts: Array<[string, unknown]> = [
      ["write_file", { path: "src/new.ts", content: "x\n" }],
      ["edit_file", { path: "src/app.ts", edits: [{ search: "42", replace: "43" }] }],
      ["run_command", { command: "ls" }],
      ["commit", { message: "nope" }],
      ["merge_progress", {}],
    ];
    for (const [name, args] of attempts) {
      const out = await callTool(readers[0]!, name, args);
      assert.ok(!out.ok, `${name} refused`);
      assert.equal(out.error.code, "read-only", `${name}: ${out.error.message}`);
      assert.match(out.error.message, new RegExp(`${name} needs a worktree of your own`));
    }
    assert.equal(readers[0]!.hasWorktree, false);
    assert.equal(readers[0]!.branch, undefined);
    assert.deepEqual(worktreeNames(), [".read-view"], "the refused changes made no worktree");
    assert.equal(git(path.join(repo.worktreeRoot, ".read-view"), "status", "--porcelain"), "", "the view is clean");
  });

  it("a writer reads the view until its first write makes its worktree; one that never writes gets none", async () => {
    const writer = await AgentWorkspace.onDemand(repo, "agent-1", "writer", view, { policy });
    const idle = await AgentWorkspace.onDemand(repo, "agent-2", "writer", view, { policy });
    for (const ws of [writer, idle]) assert.ok((await callTool(ws, "list_dir", { path: "src" })).ok);
    const status = await callTool(idle, "git_status", {});
    assert.ok(status.ok && status.result.files.length === 0, "nothing changed, no tree made for a status");
    assert.deepEqual(worktreeNames(), [".read-view"]);
    const wrote = await callTool(writer, "write_file", { path: "src/new.ts", content: "export const n = 1;\n" });
    assert.ok(wrote.ok, JSON.stringify(wrote));
    assert.deepEqual(worktreeNames(), [".read-view", "agent-1"]);
    assert.ok(existsSync(path.join(writer.worktree.path, "src/new.ts")), "written in its own worktree");
    assert.ok(!existsSync(path.join(readViewPath(repo), "src/new.ts")), "the shared view is untouched");
    const read = await callTool(writer, "read_file", { path: "src/new.ts" });
    assert.ok(read.ok, "after its first write it reads its own worktree");
    const committed = await callTool(writer, "commit", { message: "n" });
    assert.ok(committed.ok && committed.result.committed, JSON.stringify(committed));
  });

  it("prepare (a granted claim) makes the writer's worktree and is a no-op for a reader", async () => {
    const writer = await AgentWorkspace.onDemand(repo, "agent-1", "writer", view, { policy });
    const reader = await AgentWorkspace.onDemand(repo, "agent-2", "reader", view, { policy });
    await Promise.all([writer.prepare(), writer.prepare(), reader.prepare()]);
    assert.equal(writer.hasWorktree, true);
    assert.equal(writer.worktree.branch, "swarmboard/view/agent-1");
    assert.equal(reader.hasWorktree, false);
    assert.throws(() => reader.worktree, /agent-2 has no worktree of its own \(it only reads\)/);
    assert.deepEqual(worktreeNames(), ["agent-1"], "no read happened, so no view either");
  });

  it("a resumed writer whose worktree exists carries on in it at once", async () => {
    const first = await AgentWorkspace.onDemand(repo, "agent-1", "writer", view, { policy });
    await callTool(first, "write_file", { path: "left.txt", content: "uncommitted\n" });
    const again = await AgentWorkspace.onDemand(repo, "agent-1", "writer", view, { policy });
    assert.equal(again.hasWorktree, true);
    const read = await callTool(again, "read_file", { path: "left.txt" });
    assert.ok(read.ok && read.result.content.includes("uncommitted"), `it reads what it left: ${JSON.stringify(read)}`);
  });

  it("the view moves to the integration branch's commit when reopened, and clean-up removes it", async () => {
    const reader = await AgentWorkspace.onDemand(repo, "agent-1", "reader", view, { policy });
    assert.ok((await callTool(reader, "read_file", { path: "README.md" })).ok);
    write(repoDir, "later.txt", "later\n");
    git(repoDir, "add", "later.txt");
    git(repoDir, "commit", "-q", "-m", "later");
    git(repoDir, "branch", "-f", repo.integrationBranch, "HEAD");
    const next = new SharedReadView(repo, await repositoryProtectedPaths(repo));
    const reopened = await AgentWorkspace.onDemand(repo, "agent-1", "reader", next, { policy });
    assert.ok((await callTool(reopened, "read_file", { path: "later.txt" })).ok, "a resume sees the new commit");
    const plan = await planCleanUp(repo);
    assert.ok(plan.worktrees.some((w) => w.branch === "(shared read-only view)" && !w.uncommitted));
    const report = await cleanupSwarm(repo);
    assert.ok(
      report.removedWorktrees.some((p) => p.endsWith(".read-view")),
      JSON.stringify(report),
    );
    assert.ok(!existsSync(readViewPath(repo)));
  });

  it("follows the integration branch when a later seat opens (merges made meanwhile are read)", async () => {
    await view.followIntegration();
    assert.deepEqual(worktreeNames(), [], "nothing is made before the first read");
    const reader = await AgentWorkspace.onDemand(repo, "agent-1", "reader", view, { policy });
    assert.ok((await callTool(reader, "read_file", { path: "README.md" })).ok);
    const writer = await AgentWorkspace.onDemand(repo, "agent-2", "writer", view, { policy });
    await callTool(writer, "write_file", { path: "merged.txt", content: "merged\n" });
    await callTool(writer, "commit", { message: "merged" });
    const merged = await callTool(writer, "merge_progress", {});
    assert.ok(merged.ok && merged.result.status === "merged", JSON.stringify(merged));
    assert.equal((await callTool(reader, "read_file", { path: "merged.txt" })).ok, false, "not yet followed");
    await view.followIntegration();
    const read = await callTool(reader, "read_file", { path: "merged.txt" });
    assert.ok(read.ok && read.result.content.includes("merged"), JSON.stringify(read));
  });

  it("recovery after a crash removes the lock a killed checkout left in the view", async () => {
    const reader = await AgentWorkspace.onDemand(repo, "agent-1", "reader", view, { policy });
    assert.ok((await callTool(reader, "read_file", { path: "README.md" })).ok);
    const adminDir = git(readViewPath(repo), "rev-parse", "--absolute-git-dir").trim();
    writeFileSync(path.join(adminDir, "index.lock"), "");
    const removed = await recoverSwarm(repo);
    assert.deepEqual(removed, [path.join(adminDir, "index.lock")]);
    git(repoDir, "branch", "-f", repo.integrationBranch, "HEAD~1");
    await view.followIntegration();
    assert.equal((await callTool(reader, "read_file", { path: "src/lib.ts" })).ok, false, "moved to HEAD~1");
  });

  it("discard removes the view and lazily made worktrees together", async () => {
    const writer = await AgentWorkspace.onDemand(repo, "agent-1", "writer", view, { policy });
    await callTool(writer, "read_file", { path: "README.md" });
    await callTool(writer, "write_file", { path: "w.txt", content: "w\n" });
    const removed = await discardSwarm(repo);
    assert.equal(removed.removedWorktrees.length, 2, JSON.stringify(removed));
    assert.ok(!existsSync(repo.worktreeRoot));
  });

  it("counts a checkout's size in whole 4 KiB blocks, from the tree alone", async () => {
    const sha = git(repoDir, "rev-parse", "HEAD").trim();
    // Four small files: README.md, .gitignore, src/app.ts, src/lib.ts.
    assert.equal(await checkoutBytes(repo, sha), 4 * 4096);
    write(repoDir, "big.bin", "x".repeat(10_000));
    git(repoDir, "add", "big.bin");
    git(repoDir, "commit", "-q", "-m", "big");
    assert.equal(await checkoutBytes(repo, git(repoDir, "rev-parse", "HEAD").trim()), 4 * 4096 + 3 * 4096);
  });
});
