// Which worktrees are sparse, told by a marker file in the worktree's own git dir (`<common>/worktrees/<name>/`),
// so that every git command Swarmboard runs there carries the sparse settings without writing any git config: the
// user's `.git/config` is never changed (no `extensions.worktreeConfig`), and a command without them would check out
// files a merge brings outside the cone while leaving their skip-worktree bit set (edits there would go unseen).
// Only linked worktrees (`.git` is a file) carry the marker; the user's checkout is never judged sparse here.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";

/** The marker's name in a worktree's git dir; written by sparseCheckout.ts when it makes the worktree sparse. */
export const SPARSE_MARKER = "swarmboard-sparse";

/** The `-c` settings of a sparse worktree: cone mode, the patterns in the worktree's own `info/sparse-checkout`. */
export const SPARSE_CONFIG = ["core.sparseCheckout=true", "core.sparseCheckoutCone=true"] as const;

/** The git dir a linked worktree's `.git` file points at, or undefined for anything else. */
export function linkedGitDir(worktree: string): string | undefined {
  const dotGit = path.join(worktree, ".git");
  try {
    if (!statSync(dotGit).isFile()) return undefined;
    const line = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]?.trim();
    return line === undefined ? undefined : path.resolve(worktree, line);
  } catch {
    return undefined;
  }
}

/** Whether `cwd` is the root of a worktree Swarmboard made sparse. */
export function isSparseWorktree(cwd: string): boolean {
  const gitDir = linkedGitDir(cwd);
  if (gitDir === undefined) return false;
  try {
    return statSync(path.join(gitDir, SPARSE_MARKER)).isFile();
  } catch {
    return false;
  }
}
