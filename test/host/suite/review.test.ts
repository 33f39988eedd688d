// The review of the shared scripted run's branches (reviewSwarmRun.ts): the list with stats and merged-ness,
// an agent's change in a diff editor, merge into the user's branch (refused over their own edits), and a
// discard that removes only that swarm's agent branch and worktree.
import assert from "node:assert/strict";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import type { BranchReview, MergeIntoCurrentResult } from "../../../src/protocol/userReview";
import { requestScreenshot } from "./automationMarkers";
import { swarmboard, waitFor } from "./hostApi";
import { git, sharedRun, varianceSource, type SharedRun } from "./reviewSwarmRun";

function worktreeOf(run: SharedRun, agent: string): string | undefined {
  const root = path.join(run.stateDir, "worktrees");
  for (const key of readdirSync(root)) {
    const candidate = path.join(root, key, run.swarmId, agent);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

describe("review of agent branches", function () {
  this.timeout(240_000);
  let run: SharedRun;
  const branch = (name: string) => `swarmboard/${run.swarmId}/${name}`;

  before(async function () {
    const { hooks } = await swarmboard();
    run = await sharedRun(hooks);
    const ended = await waitFor(
      "the shared run to end",
      () => {
        const status = hooks.reviewSurfaces.swarms.view(run.swarmId)?.status;
        return status !== undefined && status !== "starting" && status !== "running" ? status : undefined;
      },
      200_000,
    );
    assert.equal(ended, "completed", hooks.reviewSurfaces.swarms.view(run.swarmId)?.endReason);
  });

  it("lists the integration branch and each agent's branch with its diff stat and whether it is merged", async () => {
    const { hooks } = await swarmboard();
    const listing = vscode.commands.executeCommand<BranchReview[] | undefined>("swarmboard.reviewBranches", {
      swarmId: run.swarmId,
    });
    const picker = await waitFor("the branch list", () => hooks.reviewSurfaces.picker());
    const item = (name: string) => picker.items.find((i) => i.label.endsWith(branch(name)));
    assert.ok(item("main"), "the integration branch is listed");
    assert.match(item("agent-1")?.detail ?? "", /^merged into the integration branch/);
    assert.match(item("agent-2")?.detail ?? "", /^not merged into the integration branch/);
    assert.match(item("agent-2")?.description ?? "", /agent-2 · 1 file\(s\) \+6 −0/);
    picker.hide();
    const branches = await listing;
    // The synthesist only reads: it shares the swarm's read view and has no branch (and nothing to review).
    assert.deepEqual(branches?.map((b) => b.branch).sort(), [branch("agent-1"), branch("agent-2"), branch("main")]);
  });

  it("opens agent-2's branch as a read-only diff, base vs branch, with its change", async () => {
    const opened = await vscode.commands.executeCommand<Array<{ path: string; left: vscode.Uri; right: vscode.Uri }>>(
      "swarmboard.openBranchDiff",
      branch("agent-2"),
    );
    assert.deepEqual(
      opened.map((o) => o.path),
      ["src/variance.js"],
    );
    const tab = await waitFor("the diff tab", () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find(
          (t) =>
            t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === opened[0]!.right.toString(),
        ),
    );
    assert.equal((tab.input as vscode.TabInputTextDiff).modified.scheme, "swarmboard-git");
    assert.equal((await vscode.workspace.openTextDocument(opened[0]!.right)).getText(), varianceSource);
    assert.equal(
      (await vscode.workspace.openTextDocument(opened[0]!.left)).getText(),
      "",
      "the file is new on the branch",
    );
    // The integration branch changes a file that exists on both sides: the better picture of a diff.
    const integration = await vscode.commands.executeCommand<Array<{ left: vscode.Uri; right: vscode.Uri }>>(
      "swarmboard.openBranchDiff",
      branch("main"),
    );
    assert.ok(
      (await vscode.workspace.openTextDocument(integration[0]!.right)).getText().includes("sort((a, b) => a - b)"),
    );
    if (vscode.env.uiKind === vscode.UIKind.Web) {
      await vscode.commands.executeCommand("notifications.clearAll");
      await requestScreenshot("branch-diff");
    }
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("refuses to merge over the user's uncommitted changes to the same file, and says why", async () => {
    const { hooks } = await swarmboard();
    const stats = path.join(run.repo, "src", "stats.js");
    writeFileSync(stats, `// my own edit\n${git(run.repo, "show", "HEAD:src/stats.js")}\n`);
    try {
      hooks.reviewSurfaces.confirmations.answerNext(true);
      const result = await vscode.commands.executeCommand<MergeIntoCurrentResult>(
        "swarmboard.mergeBranch",
        branch("main"),
      );
      assert.equal(result.status, "refused");
      assert.ok(result.status === "refused" && result.files.includes("src/stats.js"));
      assert.ok(
        hooks.log
          .recentLines()
          .some((l) => l.includes(`did not merge ${branch("main")}`) && l.includes("src/stats.js")),
        "the refusal is shown with its reason",
      );
    } finally {
      git(run.repo, "checkout", "--", "src/stats.js");
    }
  });

  it("refuses the merge where git has no identity for the user, saying what to run, with nothing changed", async () => {
    const { hooks } = await swarmboard();
    // The host tier's git reads no machine config (test/isolatedGit.ts): without the repository's own identity
    // this is a fresh machine's checkout.
    git(run.repo, "config", "--unset", "user.name");
    git(run.repo, "config", "--unset", "user.email");
    const head = git(run.repo, "rev-parse", "HEAD");
    const status = git(run.repo, "status", "--porcelain=v1", "-uall");
    try {
      hooks.reviewSurfaces.confirmations.answerNext(true);
      const result = await vscode.commands.executeCommand<MergeIntoCurrentResult>(
        "swarmboard.mergeBranch",
        branch("agent-2"),
      );
      assert.ok(result.status === "refused", JSON.stringify(result));
      assert.match(result.message, /Git does not know who you are/);
      assert.ok(
        hooks.log
          .recentLines()
          .some((l) => l.includes(`did not merge ${branch("agent-2")}`) && l.includes("git config --global user.name")),
        "the refusal is shown with what to run",
      );
      assert.equal(git(run.repo, "rev-parse", "HEAD"), head, "no merge commit");
      assert.equal(git(run.repo, "status", "--porcelain=v1", "-uall"), status, "the working tree is as it was");
      await requestScreenshot("merge-without-identity");
    } finally {
      git(run.repo, "config", "user.name", "Sample User");
      git(run.repo, "config", "user.email", "user@example.invalid");
    }
  });

  it("merges agent-2's branch into the user's current branch only after the user confirms", async () => {
    const { hooks } = await swarmboard();
    const before = git(run.repo, "rev-parse", "HEAD");
    hooks.reviewSurfaces.confirmations.answerNext(false);
    assert.equal(await vscode.commands.executeCommand("swarmboard.mergeBranch", branch("agent-2")), undefined);
    assert.equal(git(run.repo, "rev-parse", "HEAD"), before, "a cancelled merge changes nothing");
    hooks.reviewSurfaces.confirmations.answerNext(true);
    const result = await vscode.commands.executeCommand<MergeIntoCurrentResult>(
      "swarmboard.mergeBranch",
      branch("agent-2"),
    );
    assert.equal(result.status, "merged");
    assert.equal(git(run.repo, "rev-parse", "--abbrev-ref", "HEAD"), "main");
    assert.equal(git(run.repo, "show", "main:src/variance.js"), varianceSource.trimEnd());
    assert.ok(existsSync(path.join(run.repo, "src", "variance.js")), "the merged file is in the user's checkout");
  });

  it("discards agent-2's branch and worktree and nothing else", async () => {
    const { hooks } = await swarmboard();
    git(run.repo, "branch", "swarmboard/other-swarm/agent-2", "main");
    assert.ok(worktreeOf(run, "agent-2"), "agent-2 has a worktree before the discard");
    hooks.reviewSurfaces.confirmations.answerNext(true);
    const result = await vscode.commands.executeCommand<{ deletedBranches: string[]; removedWorktrees: string[] }>(
      "swarmboard.discardBranch",
      branch("agent-2"),
    );
    assert.deepEqual(result.deletedBranches, [branch("agent-2")]);
    assert.equal(result.removedWorktrees.length, 1);
    assert.equal(worktreeOf(run, "agent-2"), undefined, "agent-2's worktree is gone");
    assert.ok(worktreeOf(run, "agent-1"), "agent-1's worktree stays");
    const left = git(run.repo, "branch", "--list", "--format=%(refname:short)").split("\n").sort();
    assert.deepEqual(left, ["main", branch("agent-1"), branch("main"), "swarmboard/other-swarm/agent-2"].sort());
    const refused = await vscode.commands.executeCommand("swarmboard.discardBranch", {
      swarmId: run.swarmId,
      branch: "swarmboard/other-swarm/agent-2",
    });
    assert.equal(refused, undefined, "another swarm's branch is refused");
    assert.ok(git(run.repo, "branch", "--list", "swarmboard/other-swarm/agent-2") !== "", "and stays");
  });
});
