// Issue 14, past swarms in a fresh window: the runner ran a real swarm with the CLI in the workspace's repository
// before this host started (test/host/pastSwarmSetup.ts), as a reloaded or restarted window finds it. The tree
// lists it from the repository's history with its outcome, branches and findings; its findings show in the editor
// and in the list; Review opens its branch's diff, and Merge in the diff's title merges it (undone after);
// Clean Up removes its branches and worktrees only after the user confirms (declined first: nothing is touched).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import type { CleanUpResult } from "../../../src/host/swarm/historyCommands";
import { pastSwarmFile, pastSwarmIdVariable, pastSwarmStateVariable } from "../pastSwarmSetup";
import { requestScreenshot } from "./automationMarkers";
import { swarmboard, waitFor } from "./hostApi";
import { git, pickInOurPicker } from "./reviewSwarmRun";

function pastSwarm(): { swarmId: string; stateDir: string; workspace: string } {
  const swarmId = process.env[pastSwarmIdVariable];
  const stateDir = process.env[pastSwarmStateVariable];
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(swarmId && stateDir, `the runner recorded no past swarm (${pastSwarmIdVariable} is not set)`);
  assert.ok(workspace, "the workbench has no folder open");
  return { swarmId, stateDir, workspace };
}

interface MenuEntry {
  readonly command: string;
  readonly when?: string;
}

/** package.json as written (the host's packageJSON holds its when clauses rewritten in its own form). */
function extensionPackage(): { contributes: { menus: Record<string, MenuEntry[] | undefined> } } {
  const root = vscode.extensions.getExtension("swarmboard.swarmboard")!.extensionPath;
  return JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    contributes: { menus: Record<string, MenuEntry[] | undefined> };
  };
}

function swarmBranches(workspace: string, swarmId: string): string[] {
  const out = git(workspace, "for-each-ref", "--format=%(refname:short)", `refs/heads/swarmboard/${swarmId}/`);
  return out === "" ? [] : out.split("\n").sort();
}

function swarmWorktrees(workspace: string, stateDir: string): string[] {
  return git(workspace, "worktree", "list", "--porcelain")
    .split("\n")
    .filter((l) => l.startsWith("worktree ") && l.slice("worktree ".length).startsWith(stateDir));
}

describe("past swarms (recorded by the CLI before this host started)", function () {
  this.timeout(300_000);

  it("lists the repository's past swarm in the Swarms tree with its outcome, branches and findings", async () => {
    const { swarmId } = pastSwarm();
    const { hooks } = await swarmboard();
    await vscode.commands.executeCommand("swarmboard.swarms.focus");
    const node = await waitFor(
      "the past swarm in the tree",
      () => hooks.swarmsView.roots().find((n) => n.kind === "swarm" && n.swarmId === swarmId),
      120_000,
    );
    assert.equal(node.label, "Add a range function");
    // The integration branch never moved ("no commits"); agent-1's branch has the commit the user's branch lacks.
    assert.match(node.description ?? "", /^past · completed · .* · 1 agent · 2 branches, 1 unmerged$/);
    assert.equal(node.contextValue, "swarm-cleanable", "a completed swarm can be cleaned up, not resumed");
    assert.match(node.tooltip ?? "", /launched from the CLI\): completed/);
    assert.match(node.tooltip ?? "", new RegExp(`swarmboard/${swarmId}/agent-1: 1 commit\\(s\\) not in your branch`));
    const [agent] = hooks.swarms.children(node);
    assert.equal(agent?.agentId, "agent-1");
    assert.equal(agent?.branch, `swarmboard/${swarmId}/agent-1`);
    assert.match(
      agent?.description ?? "",
      /^done · \d+ tok$/,
      "its tokens from the trace; no cells: none are held now",
    );
    const findings = hooks.swarms.children(agent!).map((f) => f.label);
    assert.deepEqual(findings, ["range is missing from stats"]);
    // The model line is this worker's, not a past swarm's: until a swarm of this window loads one, it is not shown.
    if (!hooks.swarms.store.swarms().some((s) => s.past === undefined && s.model !== undefined))
      assert.doesNotMatch(hooks.swarmsView.roots().find((n) => n.kind === "model")?.label ?? "", /stories260K/);
    if (vscode.env.uiKind === vscode.UIKind.Web) {
      await vscode.commands.executeCommand("notifications.clearAll");
      // The picture: the past swarm unfolded down to its finding, in a sidebar wide enough for the descriptions.
      // (The width commands act on the focused part: the editor narrows, so the sidebar widens.)
      await vscode.commands.executeCommand("workbench.action.focusActiveEditorGroup");
      for (let i = 0; i < 6; i++) await vscode.commands.executeCommand("workbench.action.decreaseViewWidth");
      // Not an assertion: the view resolves a node only once it has drawn it, so the unfolding is retried.
      for (let i = 0; i < 10; i++) {
        await new Promise((r) => setTimeout(r, 400));
        const shown = await Promise.resolve(hooks.swarmsView.reveal(node)).then(
          () => true,
          () => false,
        );
        if (shown) break;
      }
      await new Promise((r) => setTimeout(r, 800));
      await requestScreenshot("past-swarms");
    }
  });

  it("shows the past swarm's findings, read from its board, in the editor and in the findings list", async () => {
    const { swarmId, workspace } = pastSwarm();
    const { hooks } = await swarmboard();
    const uri = vscode.Uri.file(path.join(workspace, "src", "stats.js"));
    await vscode.window.showTextDocument(uri, { preview: false });
    const shown = await waitFor("the finding at line 1", () =>
      hooks.reviewSurfaces.findings.shownIn(uri).find((f) => f.label.includes("range is missing from stats")),
    );
    assert.equal(shown.line, 0);
    const listed = vscode.commands.executeCommand<{ kind: string; author: string } | undefined>(
      "swarmboard.listFindings",
      { swarmId },
    );
    const entry = await pickInOurPicker(hooks, (label) => label.includes("range is missing"), listed);
    assert.equal(`${entry?.kind} ${entry?.author}`, "FACT agent-1");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("opens the past swarm's agent branch as a diff", async () => {
    const { swarmId } = pastSwarm();
    const opened = await vscode.commands.executeCommand<Array<{ path: string; right: vscode.Uri }>>(
      "swarmboard.openBranchDiff",
      { swarmId, branch: `swarmboard/${swarmId}/agent-1` },
    );
    assert.deepEqual(
      opened.map((o) => o.path),
      [pastSwarmFile],
    );
    assert.match((await vscode.workspace.openTextDocument(opened[0]!.right)).getText(), /function range/);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("merges the agent branch from its diff editor's title, and the tree's count follows", async () => {
    const { swarmId, workspace } = pastSwarm();
    const { hooks } = await swarmboard();
    const agentBranch = `swarmboard/${swarmId}/agent-1`;
    const menu = (extensionPackage().contributes.menus["editor/title"] ?? []).map((m) => `${m.command} if ${m.when}`);
    assert.deepEqual(menu, [
      "swarmboard.mergeBranchInDiff if resourceScheme == swarmboard-git && isInDiffEditor",
      "swarmboard.discardBranchInDiff if resourceScheme == swarmboard-git && isInDiffEditor",
    ]);
    await vscode.commands.executeCommand("swarmboard.openBranchDiff", { swarmId, branch: agentBranch });
    await waitFor("the diff editor to be active", () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff && input.modified.scheme === "swarmboard-git";
    });
    if (vscode.env.uiKind === vscode.UIKind.Web) {
      await vscode.commands.executeCommand("notifications.clearAll");
      await requestScreenshot("diff-title-actions");
    }
    const head = git(workspace, "rev-parse", "HEAD");
    hooks.reviewSurfaces.confirmations.answerNext(true);
    // The runner's sample repository has no identity of its own (a merge commit needs one): set for this merge only.
    git(workspace, "config", "user.name", "Sample User");
    git(workspace, "config", "user.email", "user@example.invalid");
    let result: { status: string; message?: string } | undefined;
    try {
      // As the title's button does when clicked with no URI: the active diff says which branch.
      result = await vscode.commands.executeCommand("swarmboard.mergeBranchInDiff");
    } finally {
      git(workspace, "config", "--unset", "user.name");
      git(workspace, "config", "--unset", "user.email");
    }
    assert.equal(result?.status, "merged", result?.message);
    assert.equal(git(workspace, "merge-base", "--is-ancestor", agentBranch, "HEAD"), "", "the branch is merged");
    assert.match(hooks.reviewSurfaces.confirmations.questions().at(-1) ?? "", new RegExp(`^Merge ${agentBranch} into`));
    const said = hooks.log.recentLines().filter((l) => l.includes(`Merged ${agentBranch} into main`));
    assert.equal(said.length, 1, `one merge notice: ${said.join(" | ")}`);
    assert.doesNotMatch(said[0]!, /merged .*\)\. Merged/i, "the notice does not say it twice");
    const node = () => hooks.swarmsView.roots().find((n) => n.kind === "swarm" && n.swarmId === swarmId);
    assert.match(node()?.description ?? "", / · 2 branches$/, "the tree counts no unmerged branch after the merge");
    // The next test cleans up what is unmerged: the user's branch goes back to before the merge.
    git(workspace, "reset", "--hard", head);
    await hooks.history.refresh();
    assert.match(node()?.description ?? "", / · 2 branches, 1 unmerged$/);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("cleans up its branches and worktrees only after the user confirms what is unmerged", async () => {
    const { swarmId, stateDir, workspace } = pastSwarm();
    const { hooks } = await swarmboard();
    const branches = swarmBranches(workspace, swarmId);
    assert.deepEqual(branches, [`swarmboard/${swarmId}/agent-1`, `swarmboard/${swarmId}/main`]);
    const worktrees = swarmWorktrees(workspace, stateDir);
    assert.equal(worktrees.length, 1, `agent-1's worktree: ${worktrees.join(", ")}`);

    hooks.reviewSurfaces.confirmations.answerNext(false);
    const asked = hooks.reviewSurfaces.confirmations.questions().length;
    const declined = await vscode.commands.executeCommand<CleanUpResult | undefined>("swarmboard.cleanUpSwarm", {
      swarmId,
    });
    assert.ok(declined, "the command returned the plan");
    assert.equal(declined.removed, undefined, "declined: nothing removed");
    assert.deepEqual(declined.plan.unmerged, [`swarmboard/${swarmId}/agent-1`]);
    const question = hooks.reviewSurfaces.confirmations.questions()[asked];
    assert.match(question ?? "", new RegExp(`^Clean up swarm ${swarmId}\\? 1 unmerged branch`));
    assert.deepEqual(swarmBranches(workspace, swarmId), branches, "declined: every branch is still there");
    assert.equal(swarmWorktrees(workspace, stateDir).length, 1, "declined: the worktree is still there");

    hooks.reviewSurfaces.confirmations.answerNext(true);
    const accepted = await vscode.commands.executeCommand<CleanUpResult | undefined>("swarmboard.cleanUpSwarm", {
      swarmId,
    });
    assert.deepEqual(accepted?.removed?.branches.sort(), branches);
    assert.deepEqual(swarmBranches(workspace, swarmId), [], "accepted: no branch of the swarm is left");
    assert.deepEqual(swarmWorktrees(workspace, stateDir), [], "accepted: no worktree of the swarm is left");
    assert.equal(git(workspace, "rev-parse", "--abbrev-ref", "HEAD"), "main", "the user's branch is untouched");
    const node = await waitFor("the tree to say it was cleaned up", () =>
      hooks.swarmsView
        .roots()
        .find((n) => n.kind === "swarm" && n.swarmId === swarmId && /cleaned up/.test(n.description ?? "")),
    );
    assert.equal(node.contextValue, "swarm", "a cleaned-up swarm offers neither Resume nor Clean Up");
  });
});
