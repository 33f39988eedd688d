// What a swarm branch changes, for the review: the files it changes against its merge base (what a merge
// would bring) and a file's text at one of the swarm's refs (for VS Code's diff editors).
import type { ChangedFiles } from "../protocol/swarmRpc";
import { agentOfBranch } from "./branchNames";
import { GitCommandError, gitText, runGit } from "./gitExec";
import type { SwarmRepository } from "./swarmRepository";

const maxFileChars = 2_000_000;

export interface FileAtRef {
  readonly exists: boolean;
  readonly content: string;
  readonly truncated: boolean;
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

/** Files the branch changes against the merge base with its base (what a merge would bring). */
export async function changedFilesOfBranch(repo: SwarmRepository, branch: string): Promise<ChangedFiles> {
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
}

/** A file's text at a commit or branch of the swarm; `exists: false` when the file is not there. */
export async function fileAtRef(repo: SwarmRepository, ref: string, filePath: string): Promise<FileAtRef> {
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
}
