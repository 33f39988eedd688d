// Merging progress (conflicts as data, resolved in the agent's worktree), the user's review (branches with diff
// stats and merged-ness, diffs, merging into the current branch only when it cannot disturb their work), and
// cleanup that keeps unmerged work.
import assert from "node:assert/strict";
import { callTool } from "./callTool";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  branchDiffSchema,
  branchReviewSchema,
  cleanupReportSchema,
  mergeIntoCurrentResultSchema,
} from "../../../src/protocol/userReview";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { cleanupSwarm, discardAgent, discardSwarm } from "../../../src/workspace/swarmCleanup";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { diffSwarmBranch, listSwarmBranches, mergeIntoCurrent } from "../../../src/workspace/swarmReview";
import { cleanRepo, git, hookRan, removeDir, snapshotCheckout, tempDir, write } from "./gitFixture";

const policy = new CommandPolicy({ allow: [], ask: [], deny: [] });

describe("workspace: merging progress and reviewing branches", function () {
  this.timeout(120_000);
  let repoDir = "";
  let stateDir = "";
  let repo: SwarmRepository;
  let a1: AgentWorkspace;
  let a2: AgentWorkspace;

  async function call(ws: AgentWorkspace, tool: string, args: unknown) {
    const out = await callTool(ws, tool, args);
    if (!out.ok) assert.fail(`${ws.worktree.agent} ${tool}: ${out.error.message}`);
    return out.result as Record<string, unknown>;
  }

  before(async () => {
    repoDir = cleanRepo();
    stateDir = tempDir("state");
    repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "mr" });
    await repo.start({ includeUncommitted: false });
    a1 = await AgentWorkspace.open(repo, "a1", { policy });
    a2 = await AgentWorkspace.open(repo, "a2", { policy });
  });
  after(() => {
    removeDir(repoDir);
    removeDir(stateDir);
  });

  it("returns a conflict as files and hunks, and merges once the agent resolves it", async () => {
    await call(a1, "edit_file", { path: "src/app.ts", search: "42", replace: "43" });
    await call(a1, "commit", { message: "a1: 43" });
    assert.equal((await call(a1, "merge_progress", {})).status, "merged");
    await call(a2, "edit_file", { path: "src/app.ts", search: "42", replace: "44" });
    await call(a2, "commit", { message: "a2: 44" });
    const conflict = await call(a2, "merge_progress", {});
    assert.equal(conflict.status, "conflict");
    assert.deepEqual(conflict.files, [
      {
        path: "src/app.ts",
        hunks: [{ startLine: 1, ours: "export const answer = 44;", theirs: "export const answer = 43;" }],
      },
    ]);
    assert.match(String(conflict.message), /commit \(it concludes the merge\)/);
    // The worktree is left in the merge, with markers, for the agent to resolve.
    assert.equal((await call(a2, "git_status", {})).merging, true);
    assert.match(readFileSync(path.join(a2.worktree.path, "src/app.ts"), "utf8"), /^<<<<<<< /m);
    assert.equal((await call(a2, "merge_progress", {})).status, "conflict", "asking again repeats the conflict");
    const early = await callTool(a2, "commit", { message: "too early" });
    assert.ok(!early.ok && /conflict markers/.test(early.error.message));
    await call(a2, "write_file", { path: "src/app.ts", content: "export const answer = 87;\n" });
    assert.equal((await call(a2, "commit", { message: "resolve" })).reason, "Committed and concluded the merge.");
    assert.equal((await call(a2, "merge_progress", {})).status, "merged");
    assert.equal(git(repoDir, "show", `${repo.integrationBranch}:src/app.ts`), "export const answer = 87;\n");
  });

  it("refuses to merge with uncommitted changes, and says so", async () => {
    await call(a1, "write_file", { path: "wip.txt", content: "half done\n" });
    const res = await call(a1, "merge_progress", {});
    assert.equal(res.status, "refused");
    assert.match(String(res.message), /uncommitted changes: call commit/);
  });

  it("lists branches with diff stats and merged-ness, and diffs a branch against its base", async () => {
    const branches = branchReviewSchema.array().parse(await listSwarmBranches(repo));
    const byName = new Map(branches.map((b) => [b.branch, b]));
    assert.deepEqual([...byName.keys()], ["swarmboard/mr/main", "swarmboard/mr/a1", "swarmboard/mr/a2"]);
    const main = byName.get("swarmboard/mr/main");
    assert.ok(
      main && main.agent === null && main.base === "HEAD" && !main.merged && main.ahead > 0 && main.files === 1,
    );
    const b1 = byName.get("swarmboard/mr/a1");
    assert.ok(b1 && b1.agent === "a1" && b1.merged && b1.ahead === 0 && b1.behind > 0);
    const diff = branchDiffSchema.parse(await diffSwarmBranch(repo, "swarmboard/mr/main"));
    assert.match(diff.diff, /-export const answer = 42;\n\+export const answer = 87;/);
    await assert.rejects(diffSwarmBranch(repo, "main"), /not a branch of swarm mr/);
  });

  it("refuses a merge into the user's branch when their uncommitted changes touch the same files", async () => {
    write(repoDir, "src/app.ts", "export const answer = 0; // user's own edit\n");
    const before = snapshotCheckout(repoDir);
    const res = await mergeIntoCurrent(repo, repo.integrationBranch);
    assert.equal(res.status, "refused");
    if (res.status === "refused") assert.deepEqual(res.files, ["src/app.ts"]);
    assert.deepEqual(snapshotCheckout(repoDir), before);
    git(repoDir, "checkout", "--", "src/app.ts");
  });

  it("refuses a merge that would conflict, without touching anything", async () => {
    const head = git(repoDir, "rev-parse", "HEAD");
    write(repoDir, "src/app.ts", "export const answer = 1;\n");
    git(repoDir, "commit", "-q", "-am", "user changes the same line", "--no-verify");
    const before = snapshotCheckout(repoDir);
    const res = await mergeIntoCurrent(repo, repo.integrationBranch);
    assert.equal(res.status, "refused");
    if (res.status === "refused") assert.deepEqual(res.files, ["src/app.ts"]);
    assert.deepEqual(snapshotCheckout(repoDir), before);
    git(repoDir, "reset", "-q", "--hard", head.trim());
  });

  it("refuses the user's merge when git has no identity for them, saying what to run and changing nothing", async () => {
    // The tiers run git with no global config (test/isolatedGit.ts): this repository has no identity, as on a
    // fresh machine. Agents' commits above carried the swarm's own; the user's merge must be theirs.
    write(repoDir, "notes.txt", "user's untracked notes\n");
    const before = snapshotCheckout(repoDir);
    const res = await mergeIntoCurrent(repo, repo.integrationBranch);
    assert.ok(res.status === "refused", JSON.stringify(res));
    assert.match(res.message, /Git does not know who you are/);
    assert.match(res.message, /git config --global user\.name "Your Name"/);
    assert.match(res.message, /nothing was changed/);
    assert.deepEqual(snapshotCheckout(repoDir), before);
    // The user sets their identity in this repository, as the message says (without --global).
    git(repoDir, "config", "user.name", "Test User");
    git(repoDir, "config", "user.email", "user@example.invalid");
  });

  it("merges into the user's branch, keeping their unrelated uncommitted work and running no hook", async () => {
    write(repoDir, "notes.txt", "user's untracked notes\n");
    write(repoDir, "README.md", "# fixture\n\nuser's unstaged edit\n");
    write(repoDir, ".git/hooks/pre-merge-commit", `#!/bin/sh\necho ran >> "${repoDir}.hook-ran"\n`);
    write(repoDir, "staged.txt", "staged\n");
    git(repoDir, "add", "staged.txt");
    const refused = await mergeIntoCurrent(repo, repo.integrationBranch);
    assert.ok(refused.status === "refused" && /staged changes/.test(refused.message), JSON.stringify(refused));
    git(repoDir, "rm", "-q", "--cached", "staged.txt");
    const res = mergeIntoCurrentResultSchema.parse(await mergeIntoCurrent(repo, repo.integrationBranch));
    assert.equal(res.status, "merged", JSON.stringify(res));
    assert.equal(readFileSync(path.join(repoDir, "src/app.ts"), "utf8"), "export const answer = 87;\n");
    assert.equal(readFileSync(path.join(repoDir, "notes.txt"), "utf8"), "user's untracked notes\n");
    assert.equal(readFileSync(path.join(repoDir, "README.md"), "utf8"), "# fixture\n\nuser's unstaged edit\n");
    assert.equal(hookRan(repoDir), false);
    assert.equal((await mergeIntoCurrent(repo, repo.integrationBranch)).status, "up-to-date");
  });

  it("refuses to move the integration branch while the user has it checked out", async () => {
    const wt = path.join(stateDir, "user-wt");
    git(repoDir, "worktree", "add", "-q", wt, repo.integrationBranch);
    await call(a2, "write_file", { path: "more.txt", content: "more\n" });
    await call(a2, "commit", { message: "more" });
    const before = git(repoDir, "rev-parse", repo.integrationBranch);
    const res = await call(a2, "merge_progress", {});
    assert.equal(res.status, "refused");
    assert.match(String(res.message), /checked out/);
    assert.equal(git(repoDir, "rev-parse", repo.integrationBranch), before);
    git(repoDir, "worktree", "remove", wt);
  });

  it("cleans up without losing work, and discards only when asked", async () => {
    const report = cleanupReportSchema.parse(await cleanupSwarm(repo));
    assert.deepEqual(
      report.keptWorktrees.map((k) => path.basename(k.path)),
      ["a1"],
      "a1 has uncommitted wip.txt",
    );
    assert.deepEqual(
      report.removedWorktrees.map((p) => path.basename(p)),
      ["a2"],
    );
    assert.deepEqual(report.keptBranches.map((b) => b.branch).sort(), ["swarmboard/mr/a1", "swarmboard/mr/a2"]);
    assert.equal(readFileSync(path.join(a1.worktree.path, "wip.txt"), "utf8"), "half done\n");
    assert.match(
      git(repoDir, "log", "--format=%s", "swarmboard/mr/a2"),
      /^more$/m,
      "a2's unmerged commit is kept on its branch",
    );
    const a3 = await AgentWorkspace.open(repo, "a3", { policy });
    await call(a3, "write_file", { path: "a3.txt", content: "unmerged\n" });
    await call(a3, "commit", { message: "a3 work" });
    const one = await discardAgent(repo, "a3");
    assert.deepEqual(one, { removedWorktree: a3.worktree.path, deletedBranch: "swarmboard/mr/a3" });
    writeFileSync(path.join(a1.worktree.path, "wip.txt"), "changed again\n");
    const gone = await discardSwarm(repo);
    assert.equal(gone.deletedBranches.length, 3);
    assert.equal(git(repoDir, "for-each-ref", "refs/heads/swarmboard/"), "");
    assert.equal(git(repoDir, "worktree", "list", "--porcelain").match(/^worktree /gm)?.length, 1);
  });
});
