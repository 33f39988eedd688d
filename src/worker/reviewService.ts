// The user's review of a swarm's branches, served to the host: the list with diff stats, the files a branch
// changes, a file's text at a ref (for VS Code's diff editors), the merge into the user's branch and discard.
import type { ChangedFiles } from "../protocol/swarmRpc";
import { discardAgent, discardSwarm } from "../workspace/swarmCleanup";
import { diffSwarmBranch, listSwarmBranches, mergeIntoCurrent } from "../workspace/swarmReview";
import { SwarmRepository } from "../workspace/swarmRepository";
import { changedFilesOfBranch, fileAtRef } from "../workspace/branchFiles";

export interface ReviewTarget {
  readonly workspace: string;
  readonly stateDir: string;
  readonly swarmId: string;
}

function open(target: ReviewTarget): Promise<SwarmRepository> {
  return SwarmRepository.open({ repoPath: target.workspace, stateDir: target.stateDir, swarm: target.swarmId });
}

export const reviewService = {
  async branches(target: ReviewTarget) {
    return { branches: await listSwarmBranches(await open(target)) };
  },

  async diff(target: ReviewTarget, branch: string) {
    return diffSwarmBranch(await open(target), branch);
  },

  async changedFiles(target: ReviewTarget, branch: string): Promise<ChangedFiles> {
    return changedFilesOfBranch(await open(target), branch);
  },

  async fileAtRef(target: ReviewTarget, ref: string, filePath: string) {
    return fileAtRef(await open(target), ref, filePath);
  },

  async merge(target: ReviewTarget, branch: string) {
    return mergeIntoCurrent(await open(target), branch);
  },

  async discard(target: ReviewTarget, agentId: string | undefined) {
    const repo = await open(target);
    if (agentId === undefined) return discardSwarm(repo);
    const r = await discardAgent(repo, agentId);
    return {
      removedWorktrees: r.removedWorktree ? [r.removedWorktree] : [],
      deletedBranches: r.deletedBranch ? [r.deletedBranch] : [],
    };
  },
};
