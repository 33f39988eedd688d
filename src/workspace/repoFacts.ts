// Read-only facts about a repository: where it lives, its HEAD, its worktrees, whether a tree is dirty.
// All of these run with optional locks off (see gitExec), so asking never rewrites the user's index.
import path from "node:path";
import { realpathSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { gitText, runGit } from "./gitExec";

export interface RepoLocation {
  /** Real path of the user's working tree root. */
  readonly topLevel: string;
  /** Real path of the common git directory (shared by all worktrees). */
  readonly commonDir: string;
}

export async function locateRepo(dir: string): Promise<RepoLocation> {
  let topLevel: string;
  try {
    topLevel = await gitText(dir, ["rev-parse", "--show-toplevel"]);
  } catch (err) {
    throw new Error(
      `${dir} is not inside a git working tree (${(err as Error).message}). Open a folder that is a git repository, or run 'git init' there.`,
    );
  }
  const common = await gitText(topLevel, ["rev-parse", "--git-common-dir"]);
  return { topLevel: realpathSync(topLevel), commonDir: realpathSync(path.resolve(topLevel, common)) };
}

/** The commit HEAD points at; a clear error for a repository without commits. */
export async function headCommit(dir: string): Promise<string> {
  const out = await runGit(dir, ["rev-parse", "--verify", "-q", "HEAD^{commit}"], { okExitCodes: [1] });
  const sha = out.stdout.trim();
  if (out.exitCode !== 0 || sha === "") {
    throw new Error(
      `The repository at ${dir} has no commit yet: agents start from HEAD. Make a first commit, then launch the swarm.`,
    );
  }
  return sha;
}

/** The short name of the checked-out branch, or null when HEAD is detached. */
export async function currentBranch(dir: string): Promise<string | null> {
  const out = await runGit(dir, ["symbolic-ref", "-q", "--short", "HEAD"], { okExitCodes: [1] });
  return out.exitCode === 0 ? out.stdout.trim() : null;
}

export async function refSha(dir: string, ref: string): Promise<string | null> {
  const out = await runGit(dir, ["rev-parse", "--verify", "-q", `${ref}^{commit}`], { okExitCodes: [1] });
  return out.exitCode === 0 ? out.stdout.trim() : null;
}

export async function isAncestor(dir: string, ancestor: string, descendant: string): Promise<boolean> {
  const out = await runGit(dir, ["merge-base", "--is-ancestor", ancestor, descendant], { okExitCodes: [1] });
  return out.exitCode === 0;
}

export interface WorktreeEntry {
  readonly path: string;
  readonly head: string | null;
  /** Full ref name (refs/heads/...), or null when detached. */
  readonly branch: string | null;
  readonly prunable: boolean;
}

export async function listWorktrees(dir: string): Promise<WorktreeEntry[]> {
  const text = (await runGit(dir, ["worktree", "list", "--porcelain", "-z"])).stdout;
  const entries: WorktreeEntry[] = [];
  let cur: { path: string; head: string | null; branch: string | null; prunable: boolean } | null = null;
  for (const field of text.split("\0")) {
    if (field === "") {
      if (cur) entries.push(cur);
      cur = null;
      continue;
    }
    const [key, ...rest] = field.split(" ");
    const value = rest.join(" ");
    if (key === "worktree") cur = { path: value, head: null, branch: null, prunable: false };
    else if (cur && key === "HEAD") cur.head = value;
    else if (cur && key === "branch") cur.branch = value;
    else if (cur && key === "prunable") cur.prunable = true;
  }
  if (cur) entries.push(cur);
  return entries;
}

/** Paths with uncommitted changes (staged, unstaged, untracked; not ignored), worktree-relative. */
export async function changedPaths(dir: string): Promise<string[]> {
  const out = (await runGit(dir, ["status", "--porcelain=v1", "-z", "-uall", "--no-renames"])).stdout;
  return out
    .split("\0")
    .filter((s) => s.length > 3)
    .map((s) => s.slice(3));
}

/** Files changed on HEAD since it left `base` (from their merge base; both sides of a rename), or null without `base`. */
export async function branchChangedPaths(dir: string, base: string): Promise<string[] | null> {
  if ((await refSha(dir, base)) === null) return null;
  const out = await gitText(dir, ["diff", "--name-only", "--no-renames", "-z", `${base}...HEAD`]);
  return out.split("\0").filter(Boolean);
}

/** True while a merge is in progress in the worktree at `dir`. */
export async function isMerging(dir: string): Promise<boolean> {
  const out = await runGit(dir, ["rev-parse", "-q", "--verify", "MERGE_HEAD"], { okExitCodes: [1] });
  return out.exitCode === 0;
}

/** A worktree's own git dir (for the main worktree, the common dir). */
export async function absoluteGitDir(dir: string): Promise<string> {
  return realpathSync(await gitText(dir, ["rev-parse", "--absolute-git-dir"]));
}

/** True while a merge is in progress in the worktree whose git dir is `gitDir` (a file check, no process). */
export async function mergeHeadExists(gitDir: string): Promise<boolean> {
  return stat(path.join(gitDir, "MERGE_HEAD")).then(
    () => true,
    () => false,
  );
}

/**
 * The git dir of a worktree that has `ref` checked out, or null. Reads the HEAD files directly: this runs on
 * every merge, and a process per check would cost more than the merge.
 */
export async function worktreeHoldingRef(commonDir: string, ref: string): Promise<string | null> {
  const gitDirs = [
    commonDir,
    ...(await readdir(path.join(commonDir, "worktrees")).catch(() => [] as string[])).map((n) =>
      path.join(commonDir, "worktrees", n),
    ),
  ];
  for (const dir of gitDirs) {
    const head = await readFile(path.join(dir, "HEAD"), "utf8").catch(() => "");
    if (head.trim() === `ref: ${ref}`) return dir;
  }
  return null;
}
