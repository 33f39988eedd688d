// Cleaning up a past swarm, never silently: a dry run lists its branches (merged into the user's branch or not)
// and worktrees (with uncommitted changes or not); the removal then runs only when everything that would be lost
// was in what the user confirmed, and never touches the user's checkout or a worktree the swarm did not make.
import path from "node:path";
import type { CleanUpPlan } from "../protocol/swarmHistoryRpc";
import { swarmRefPrefix } from "./branchNames";
import { branchStates } from "./branchStates";
import { isMerging, listWorktrees } from "./repoFacts";
import { findReadView } from "./sharedReadView";
import { agentWork, discardSwarm } from "./swarmCleanup";
import type { SwarmRepository } from "./swarmRepository";

export interface CleanUpConfirmation {
  /** The unmerged branches the user saw and agreed to lose. */
  readonly unmerged: readonly string[];
  /** The worktrees with uncommitted changes the user saw and agreed to lose. */
  readonly uncommitted: readonly string[];
}

export async function planCleanUp(repo: SwarmRepository, baseSha?: string): Promise<CleanUpPlan> {
  const branches = await branchStates(repo.topLevel, repo.swarm, baseSha);
  const worktrees: CleanUpPlan["worktrees"] = [];
  // The shared read view holds no work (nothing writes there): listed so the user sees all that goes.
  const view = await findReadView(repo);
  if (view !== undefined) worktrees.push({ path: view.path, branch: "(shared read-only view)", uncommitted: false });
  for (const wt of await repo.agentWorktrees()) {
    const uncommitted = !wt.prunable && ((await isMerging(wt.path)) || (await agentWork(wt.path, repo)).length > 0);
    worktrees.push({ path: wt.path, branch: wt.branch, uncommitted });
  }
  return {
    swarmId: repo.swarm,
    branches,
    worktrees,
    unmerged: branches.filter((b) => b.state === "unmerged").map((b) => b.branch),
    uncommitted: worktrees.filter((w) => w.uncommitted).map((w) => w.path),
  };
}

/** Worktrees outside the swarm's own folder that have one of its branches checked out: the user's, not ours. */
async function foreignCheckouts(repo: SwarmRepository): Promise<string[]> {
  const prefix = swarmRefPrefix(repo.swarm);
  const own = repo.worktreeRoot + path.sep;
  return (await listWorktrees(repo.topLevel))
    .filter((w) => w.branch?.startsWith(prefix) && !w.path.startsWith(own))
    .map((w) => `${w.path} (${w.branch!.slice("refs/heads/".length)})`);
}

/** Removes the swarm's worktrees and branches after checking the confirmation covers all that would be lost. */
export async function cleanUpSwarm(
  repo: SwarmRepository,
  confirmation: CleanUpConfirmation,
  baseSha?: string,
): Promise<{ plan: CleanUpPlan; removed: { worktrees: string[]; branches: string[] } }> {
  const plan = await planCleanUp(repo, baseSha);
  const unseen = [
    ...plan.unmerged.filter((b) => !confirmation.unmerged.includes(b)).map((b) => `unmerged branch ${b}`),
    ...plan.uncommitted.filter((p) => !confirmation.uncommitted.includes(p)).map((p) => `uncommitted changes in ${p}`),
  ];
  if (unseen.length > 0)
    throw new Error(
      `Nothing was removed: ${unseen.join(", ")} would be lost and was not in what you confirmed ` +
        "(it changed since the dry run). Run the dry run again and confirm what it lists.",
    );
  const foreign = await foreignCheckouts(repo);
  if (foreign.length > 0)
    throw new Error(
      `Nothing was removed: ${foreign.join(", ")} has a branch of swarm ${repo.swarm} checked out and is not one ` +
        "of the swarm's worktrees. Switch it to another branch (or remove that worktree yourself), then clean up again.",
    );
  const removed = await discardSwarm(repo);
  return { plan, removed: { worktrees: removed.removedWorktrees, branches: removed.deletedBranches } };
}
