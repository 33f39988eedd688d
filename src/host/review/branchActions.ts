// What the user can do with a swarm's branch after reviewing it: merge it into their current branch,
// discard it (branch and worktree), or open the agent's worktree in a new window. Merge and discard ask
// first; every outcome is shown and logged, refusals with the worker's reason.
import * as vscode from "vscode";
import { discardBranchMethod, mergeBranchMethod } from "../../protocol/swarmRpc";
import type { MergeIntoCurrentResult } from "../../protocol/userReview";
import type { HostLog } from "../hostLog";
import type { SwarmStore } from "../swarm/swarmStore";
import type { WorkerProcess } from "../workerProcess";
import { branchParts, reviewTarget, type BranchTarget } from "./branchDiff";
import type { Confirmations } from "../confirmations";

export interface ReviewDeps {
  readonly worker: WorkerProcess;
  readonly store: SwarmStore;
  readonly log: HostLog;
  readonly confirmations: Confirmations;
  /** Reads the repository's history again, so the tree's branch counts follow a merge or a discard. */
  refreshHistory(): Promise<unknown>;
}

export async function mergeBranch(deps: ReviewDeps, target: BranchTarget): Promise<MergeIntoCurrentResult | undefined> {
  const ok = await deps.confirmations.confirm(
    `Merge ${target.branch} into your current branch?`,
    "Swarmboard makes a merge commit on the branch checked out in your repository. Your uncommitted changes stay as they are; if they touch the same files, nothing is merged.",
    "Merge",
  );
  if (!ok) return undefined;
  const result = await deps.worker.request(mergeBranchMethod, {
    ...reviewTarget(deps.store, target.swarmId),
    branch: target.branch,
  });
  if (result.status === "refused") {
    const text = `Swarmboard did not merge ${target.branch}: ${result.message}${result.files.length > 0 ? ` (files: ${result.files.join(", ")})` : ""}`;
    deps.log.warn(text);
    void vscode.window.showErrorMessage(text);
  } else {
    // The worker's message names the branch, the target and the commit already: said once.
    const text = `Swarmboard: ${result.message}`;
    deps.log.info(text);
    void vscode.window.showInformationMessage(text);
    if (result.status === "merged") await deps.refreshHistory();
  }
  return result;
}

export async function discardBranch(
  deps: ReviewDeps,
  target: BranchTarget,
): Promise<{ removedWorktrees: string[]; deletedBranches: string[] } | undefined> {
  const parts = branchParts(target.branch);
  if (parts === undefined || parts.swarmId !== target.swarmId) {
    throw new Error(
      `${target.branch} is not a branch of swarm ${target.swarmId}: Swarmboard only discards its own swarm's branches.`,
    );
  }
  const wholeSwarm = parts.name === "main";
  const ok = await deps.confirmations.confirm(
    wholeSwarm
      ? `Discard every branch and worktree of swarm ${target.swarmId}?`
      : `Discard ${target.branch} and its worktree?`,
    wholeSwarm
      ? "The integration branch and every agent branch and worktree of this swarm are deleted. Your own branches are not touched."
      : "The agent's branch and worktree are deleted; work merged elsewhere stays. Other branches are not touched.",
    "Discard",
  );
  if (!ok) return undefined;
  const result = await deps.worker.request(discardBranchMethod, {
    ...reviewTarget(deps.store, target.swarmId),
    ...(wholeSwarm ? {} : { agentId: parts.name }),
  });
  const text = `Swarmboard: deleted ${result.deletedBranches.length} branch(es) (${result.deletedBranches.join(", ") || "none"}) and ${result.removedWorktrees.length} worktree(s).`;
  deps.log.info(text);
  void vscode.window.showInformationMessage(text);
  await deps.refreshHistory();
  return result;
}

/** The agent's worktree folder: `<stateDir>/worktrees/<repo key>/<swarm>/<agent>` (the repo key is a hash the worker chose). */
export async function findWorktree(
  stateDir: string,
  swarmId: string,
  agentId: string,
): Promise<vscode.Uri | undefined> {
  const root = vscode.Uri.joinPath(vscode.Uri.file(stateDir), "worktrees");
  const keys = await Promise.resolve(vscode.workspace.fs.readDirectory(root)).catch(
    () => [] as [string, vscode.FileType][],
  );
  for (const [key] of keys) {
    const candidate = vscode.Uri.joinPath(root, key, swarmId, agentId);
    const exists = await Promise.resolve(vscode.workspace.fs.stat(candidate)).then(
      () => true,
      () => false,
    );
    if (exists) return candidate;
  }
  return undefined;
}

export async function openWorktree(deps: ReviewDeps, target: BranchTarget): Promise<vscode.Uri | undefined> {
  const parts = branchParts(target.branch);
  const place = deps.store.place(target.swarmId);
  if (parts === undefined || parts.name === "main" || place === undefined) {
    void vscode.window.showInformationMessage(`Swarmboard: ${target.branch} has no agent worktree to open.`);
    return undefined;
  }
  const folder = await findWorktree(place.stateDir, target.swarmId, parts.name);
  if (folder === undefined) {
    void vscode.window.showWarningMessage(
      `Swarmboard: the worktree of ${parts.name} is gone (discarded or cleaned up); its branch ${target.branch} may still exist.`,
    );
    return undefined;
  }
  await vscode.commands.executeCommand("vscode.openFolder", folder, { forceNewWindow: true });
  return folder;
}
