// The user's review of a swarm's branches, served to the host: the list with diff stats, the files a branch
// changes, a file's text at a ref (for VS Code's diff editors), the merge into the user's branch and discard.
import type { ChangedFiles } from "../protocol/swarmRpc";
import { discardAgent, discardSwarm } from "../workspace/swarmCleanup";
import { diffSwarmBranch, listSwarmBranches, mergeIntoCurrent } from "../workspace/swarmReview";
import { SwarmRepository } from "../workspace/swarmRepository";
import { GitCommandError, gitText, runGit } from "../workspace/gitExec";
import { agentOfBranch } from "../workspace/branchNames";

export interface ReviewTarget {
  readonly workspace: string;
  readonly stateDir: string;
  readonly swarmId: string;
}

const maxFileChars = 2_000_000;

function open(target: ReviewTarget): Promise<SwarmRepository> {
  return SwarmRepository.open({ repoPath: target.workspace, stateDir: target.stateDir, swarm: target.swarmId });
}

function checkBranch(repo: SwarmRepository, branch: string): void {
  if (agentOfBranch(repo.swarm, branch) === undefined)
    throw new Error(`${branch} is not a branch of swarm ${repo.swarm}.`);
}

const statusNames: Record<string, ChangedFiles["files"][number]["status"]> = {
  A: "added",
  M: "modified",
  D: "deleted",
  R: "renamed",
};

export const reviewService = {
  async branches(target: ReviewTarget) {
    return { branches: await listSwarmBranches(await open(target)) };
  },

  async diff(target: ReviewTarget, branch: string) {
    return diffSwarmBranch(await open(target), branch);
  },

  /** Files the branch changes against the merge base with its base (what a merge would bring). */
  async changedFiles(target: ReviewTarget, branch: string): Promise<ChangedFiles> {
    const repo = await open(target);
    checkBranch(repo, branch);
    const base = agentOfBranch(repo.swarm, branch) === null ? "HEAD" : repo.integrationBranch;
    const mergeBase = await gitText(repo.topLevel, ["merge-base", base, `refs/heads/${branch}`]);
    const out = await gitText(repo.topLevel, [
      "diff",
      "--no-ext-diff",
      "--name-status",
      "-z",
      "-M",
      mergeBase,
      `refs/heads/${branch}`,
    ]);
    const parts = out.split("\0").filter((p) => p !== "");
    const files: ChangedFiles["files"] = [];
    for (let i = 0; i < parts.length;) {
      const code = parts[i++]!;
      const status = statusNames[code[0]!] ?? "other";
      if (status === "renamed") {
        const oldPath = parts[i++]!;
        files.push({ path: parts[i++]!, status, oldPath });
      } else {
        files.push({ path: parts[i++]!, status });
      }
    }
    return { base: mergeBase, files };
  },

  /** A file's text at a commit or branch of the swarm; `exists: false` when the file is not there. */
  async fileAtRef(target: ReviewTarget, ref: string, filePath: string) {
    const repo = await open(target);
    if (!/^[0-9a-f]{7,64}$/.test(ref)) checkBranch(repo, ref);
    if (filePath.includes("..") || filePath.startsWith("/"))
      throw new Error(`Refused path ${filePath}: name a file inside the repository.`);
    try {
      const out = await runGit(repo.topLevel, ["show", `${ref}:${filePath}`]);
      const truncated = out.stdout.length > maxFileChars;
      return { exists: true, content: truncated ? out.stdout.slice(0, maxFileChars) : out.stdout, truncated };
    } catch (error) {
      if (error instanceof GitCommandError) return { exists: false, content: "", truncated: false };
      throw error;
    }
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
