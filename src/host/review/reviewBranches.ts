// "Swarmboard: Review Agent Branches": the integration branch and each agent's branch with its diff stat
// and whether its base already has it; picking one offers its changes, merge, discard and its worktree.
import * as vscode from "vscode";
import { listBranchesMethod } from "../../protocol/swarmRpc";
import type { BranchReview } from "../../protocol/userReview";
import { chooseSwarm } from "../findings/findingsList";
import { discardBranch, mergeBranch, openWorktree, type ReviewDeps } from "./branchActions";
import { openBranchDiff, reviewTarget, type BranchTarget } from "./branchDiff";
import type { QuickPicker } from "../quickPicker";

interface BranchItem extends vscode.QuickPickItem {
  readonly review: BranchReview;
}

export function branchItem(b: BranchReview): BranchItem {
  const who = b.agent === null ? "integration branch" : b.agent;
  const against = b.agent === null ? "your HEAD" : "the integration branch";
  return {
    review: b,
    label: `${b.agent === null ? "$(git-merge)" : "$(git-branch)"} ${b.branch}`,
    description: `${who} · ${b.files} file(s) +${b.insertions} −${b.deletions} · ${b.ahead} ahead, ${b.behind} behind`,
    detail:
      (b.merged ? `merged into ${against}` : `not merged into ${against}`) +
      (b.touchesAutomation.length > 0
        ? ` · $(warning) changes CI/automation files: ${b.touchesAutomation.join(", ")}`
        : ""),
  };
}

const actions = [
  { id: "diff", label: "$(diff) Open changes", detail: "Base vs branch, one diff editor per file (read-only)" },
  {
    id: "merge",
    label: "$(git-merge) Merge into your current branch…",
    detail: "Asks first; refused if your uncommitted changes touch the same files",
  },
  { id: "discard", label: "$(trash) Discard branch and worktree…", detail: "Asks first; only this swarm's branches" },
  { id: "worktree", label: "$(folder-opened) Open the agent's worktree in a new window" },
] as const;

export class BranchReviewCommand {
  constructor(
    private readonly deps: ReviewDeps,
    private readonly picker: QuickPicker,
  ) {}

  async run(args?: { swarmId?: string }): Promise<BranchReview[] | undefined> {
    const swarmId = await chooseSwarm(this.deps.store, args?.swarmId, "to review");
    if (swarmId === undefined) return undefined;
    // After a merge or a discard the list comes back read afresh, so it never shows what just changed as before.
    for (;;) {
      const { branches } = await this.deps.worker.request(listBranchesMethod, reviewTarget(this.deps.store, swarmId));
      if (branches.length === 0) {
        void vscode.window.showInformationMessage(
          `Swarmboard: swarm ${swarmId} has no branches left (discarded, or it never started).`,
        );
        return branches;
      }
      const picked = await this.pick(swarmId, branches);
      if (picked === undefined) return branches;
      const changed = await this.act({ swarmId, branch: picked.branch }, picked.agent !== null);
      if (!changed) return branches;
    }
  }

  private async pick(swarmId: string, branches: BranchReview[]): Promise<BranchReview | undefined> {
    const picked = await this.picker.pick(branches.map(branchItem), {
      title: `Review the branches of ${swarmId}`,
      placeholder: "Pick a branch to see its changes, merge it or discard it",
    });
    return picked?.review;
  }

  /** Runs the picked action; true when it changed the branches (a merge or a discard went through). */
  private async act(target: BranchTarget, isAgent: boolean): Promise<boolean> {
    const choice = await this.picker.pick(
      actions.filter((a) => isAgent || a.id !== "worktree"),
      { title: target.branch },
    );
    switch (choice?.id) {
      case "diff":
        await openBranchDiff(this.deps.worker, this.deps.store, this.deps.log, target);
        return false;
      case "merge":
        return (await mergeBranch(this.deps, target))?.status === "merged";
      case "discard":
        return (await discardBranch(this.deps, target)) !== undefined;
      case "worktree":
        await openWorktree(this.deps, target);
        return false;
      default:
        return false;
    }
  }
}
