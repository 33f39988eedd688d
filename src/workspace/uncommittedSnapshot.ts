// The user's uncommitted state (staged, unstaged and untracked files, not ignored ones) as one commit on top of
// HEAD, made without touching the user's index or files.
//
// Why not `git stash create`: it leaves untracked files out, and it refreshes and rewrites the index it works
// on. We get the same kind of commit by working on a private copy of the index (GIT_INDEX_FILE): `add -A`
// into the copy, `write-tree`, `commit-tree`. The user's index, files, refs and stash list stay as they were;
// only new objects land in the object store, where they are invisible until referenced.
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { gitText, type GitIdentity } from "./gitExec";
import { withLockRetry } from "./gitQueue";

export interface UncommittedSnapshot {
  /** The commit holding the uncommitted state, or null when the tree is clean. */
  readonly commit: string | null;
  readonly headCommit: string;
}

const launchMessage =
  "Swarmboard: the user's uncommitted changes at launch\n\nStaged, unstaged and untracked files (not ignored ones), as they were when the swarm started.";

/** `message`: the commit's message (default: the launch's; a standing swarm's test run after a save says so). */
export async function snapshotUncommitted(
  topLevel: string,
  head: string,
  identity: GitIdentity,
  message = launchMessage,
): Promise<UncommittedSnapshot> {
  const userIndex = path.resolve(topLevel, await gitText(topLevel, ["rev-parse", "--git-path", "index"]));
  const tmpDir = await mkdtemp(path.join(os.tmpdir(), "swarmboard-index-"));
  const privateIndex = path.join(tmpDir, "index");
  try {
    try {
      await copyFile(userIndex, privateIndex);
    } catch (err) {
      // A repository whose index was never written: start the private index from HEAD instead.
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      await gitText(topLevel, ["read-tree", head], { env: { GIT_INDEX_FILE: privateIndex } });
    }
    const env = { GIT_INDEX_FILE: privateIndex };
    await withLockRetry(() => gitText(topLevel, ["add", "-A", "--", "."], { env }));
    const tree = await gitText(topLevel, ["write-tree"], { env });
    const headTree = await gitText(topLevel, ["rev-parse", `${head}^{tree}`]);
    if (tree === headTree) return { commit: null, headCommit: head };
    const commit = await gitText(topLevel, ["commit-tree", tree, "-p", head, "-m", message], { identity });
    return { commit, headCommit: head };
  } finally {
    await rm(tmpDir, { recursive: true, force: true });
  }
}
