// The swarm's one read-only view of the integration commit: a single detached worktree that every agent reads
// through until it has a worktree of its own. Readers (roles whose tools cannot write: researchers, the
// synthesist) never get one; writers get theirs when they first claim, write or run a command. So a swarm costs
// one checkout plus one per agent that changes code, not one per agent.
// Why a worktree and not reads from git objects: the file tools (containment, symlinks, protected paths, git grep)
// and the dependency links work on a real tree unchanged, and the checkout is paid once per swarm.
// Nothing writes here: readers have no tool that writes (agentWorkspace.ts refuses them with a read-only error),
// and a writer's writes go to its own worktree, made before the first one lands.
import { realpathSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { linkDependencyFolders, NO_DEPENDENCY_FOLDERS, type DependencyFolders } from "./dependencyFolders";
import { runGit } from "./gitExec";
import { withLockRetry } from "./gitQueue";
import type { ContainmentRules } from "./pathContainment";
import { listWorktrees, refSha, type WorktreeEntry } from "./repoFacts";
import type { SwarmRepository } from "./swarmRepository";

/** The view's folder name under the swarm's worktree root; agent ids cannot start with a dot, so none collides. */
export const READ_VIEW_NAME = ".read-view";

export function readViewPath(repo: Pick<SwarmRepository, "worktreeRoot">): string {
  return path.join(repo.worktreeRoot, READ_VIEW_NAME);
}

/** The view's entry in `git worktree list`, or undefined when it was never made (or was removed). */
export async function findReadView(repo: SwarmRepository): Promise<WorktreeEntry | undefined> {
  const want = readViewPath(repo);
  return (await listWorktrees(repo.topLevel)).find((w) => w.path === want || safeReal(w.path) === safeReal(want));
}

function safeReal(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * Makes the view (or reuses it, after a resume moved to the integration branch's current commit) and returns
 * its real path. Runs in the repository's git queue like every other worktree change.
 */
export async function openReadView(repo: SwarmRepository): Promise<{ path: string; commit: string }> {
  const viewPath = readViewPath(repo);
  return repo.queue.run(async () => {
    const commit = await refSha(repo.topLevel, `refs/heads/${repo.integrationBranch}`);
    if (commit === null)
      throw new Error(`The swarm ${repo.swarm} has no integration branch yet: call start() before reading.`);
    const listed = await findReadView(repo);
    if (listed?.prunable) await withLockRetry(() => runGit(repo.topLevel, ["worktree", "prune"]));
    if (listed && !listed.prunable) {
      // Clean by construction (nothing writes here), so a plain checkout moves it; git refuses if it is not.
      if (listed.head !== commit) await runGit(listed.path, ["checkout", "--quiet", "--detach", commit]);
      return { path: realpathSync(listed.path), commit };
    }
    await mkdir(repo.worktreeRoot, { recursive: true });
    await withLockRetry(() => runGit(repo.topLevel, ["worktree", "add", "--detach", viewPath, commit]));
    return { path: realpathSync(viewPath), commit };
  });
}

/** The shared view of one swarm, made on the first read that needs it and then reused by every agent. */
export class SharedReadView {
  private opening: Promise<ContainmentRules> | undefined;

  constructor(
    private readonly repo: SwarmRepository,
    private readonly protectedPaths: readonly string[],
    private readonly dependencies: DependencyFolders = NO_DEPENDENCY_FOLDERS,
  ) {}

  /** The containment rules of the view (made now if this is the first read); a failed attempt is retried. */
  rules(): Promise<ContainmentRules> {
    this.opening ??= this.open().catch((error: unknown) => {
      this.opening = undefined;
      throw error;
    });
    return this.opening;
  }

  /**
   * Moves a view already made to the integration branch's current commit (clean by construction, so only the
   * changed files are rewritten): a seat that opens after merges (the synthesist, a later stage) reads them, as
   * it did when every agent's worktree was made at its fork. Nothing happens before the first read made it.
   */
  async followIntegration(): Promise<void> {
    if (this.opening === undefined) return;
    await this.opening.catch(() => undefined);
    if (this.opening !== undefined) await openReadView(this.repo);
  }

  /** Whether the view has been made in this run. */
  get opened(): boolean {
    return this.opening !== undefined;
  }

  private async open(): Promise<ContainmentRules> {
    const view = await openReadView(this.repo);
    const dependencyLinks = await linkDependencyFolders(view.path, this.dependencies);
    const secrets = { gitDir: this.repo.commonDir, checkouts: [this.repo.topLevel] };
    return { root: view.path, protectedPaths: this.protectedPaths, writableExceptions: [], dependencyLinks, secrets };
  }
}

/** Disk blocks a checked-out file takes at least (what `du` counts on the usual file systems). */
const blockBytes = 4096;

/**
 * The disk one checkout of `commit` takes: every file's size rounded up to whole 4 KiB blocks (so 3,000 small
 * files count as the 12 MB they occupy, not the 300 KB they hold). Read from the tree, nothing checked out.
 */
export async function checkoutBytes(repo: Pick<SwarmRepository, "topLevel">, commit: string): Promise<number> {
  return treeBytes(repo, ["-r", commit]);
}

/** The disk the files at the root of `commit` take (what a sparse worktree starts with): as `checkoutBytes`. */
export async function rootFileBytes(repo: Pick<SwarmRepository, "topLevel">, commit: string): Promise<number> {
  return treeBytes(repo, [commit]);
}

async function treeBytes(repo: Pick<SwarmRepository, "topLevel">, args: readonly string[]): Promise<number> {
  const out = (await runGit(repo.topLevel, ["ls-tree", "-l", "-z", ...args])).stdout;
  let total = 0;
  for (const entry of out.split("\0")) {
    // "<mode> blob <sha> <size>\t<path>"; a submodule (a commit entry) is not checked out here.
    const size = Number(/^\S+ blob \S+\s+(\d+)\t/.exec(entry)?.[1] ?? NaN);
    if (Number.isFinite(size)) total += Math.ceil(size / blockBytes) * blockBytes;
  }
  return total;
}
