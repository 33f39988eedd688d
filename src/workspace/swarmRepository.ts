// A swarm's branches and worktrees in the user's repository. The user's checkout is never touched: the
// integration branch `swarmboard/<swarm>/main` starts at the user's HEAD (optionally plus their uncommitted state
// as one commit), each agent gets `swarmboard/<swarm>/<agent>` in a worktree under the state directory, outside
// the user's tree, and every git operation that takes a lock runs through the repository's one queue.
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { existsSync, realpathSync } from "node:fs";
import { createHash } from "node:crypto";
import path from "node:path";
import type { UserTreeState } from "../protocol/userReview";
import { agentBranch, checkId, integrationBranch, swarmRefPrefix } from "./branchNames";
import { gitText, runGit, type GitIdentity } from "./gitExec";
import { gitQueueFor, withLockRetry, type GitQueue } from "./gitQueue";
import { absoluteGitDir, changedPaths, headCommit, listWorktrees, locateRepo, refSha } from "./repoFacts";
import { checkOutSparse } from "./sparseCheckout";
import { snapshotUncommitted } from "./uncommittedSnapshot";

export interface SwarmRepositoryOptions {
  /** Any folder inside the user's working tree. */
  readonly repoPath: string;
  /** Where worktrees live: the extension's storage, or the CLI's --state-dir. Must be outside the user's tree. */
  readonly stateDir: string;
  readonly swarm: string;
}

export interface AgentWorktree {
  readonly agent: string;
  readonly branch: string;
  /** Real path of the agent's worktree root. */
  readonly path: string;
  /** Its own git dir (`<common>/worktrees/<name>`), where MERGE_HEAD and its index live. */
  readonly gitDir: string;
}

export function agentIdentity(agent: string): GitIdentity {
  return { name: `Swarmboard agent ${agent}`, email: `${agent}@agents.swarmboard.invalid` };
}

export const swarmIdentity: GitIdentity = { name: "Swarmboard", email: "swarm@swarmboard.invalid" };

export class SwarmRepository {
  private constructor(
    readonly topLevel: string,
    readonly commonDir: string,
    readonly swarm: string,
    /** Folder holding this swarm's agent worktrees. */
    readonly worktreeRoot: string,
    readonly queue: GitQueue,
  ) {}

  static async open(options: SwarmRepositoryOptions): Promise<SwarmRepository> {
    checkId("swarm", options.swarm);
    const { topLevel, commonDir } = await locateRepo(options.repoPath);
    await mkdir(options.stateDir, { recursive: true });
    const state = realpathSync(options.stateDir);
    if (state === topLevel || state.startsWith(topLevel + path.sep)) {
      throw new Error(
        `The state directory ${state} is inside the repository ${topLevel}: agent worktrees must live outside the user's tree. Choose a state directory elsewhere.`,
      );
    }
    // One folder per repository (by hash of its git dir) so two repositories never share worktree names.
    const repoKey = createHash("sha256").update(commonDir).digest("hex").slice(0, 12);
    const worktreeRoot = path.join(state, "worktrees", repoKey, options.swarm);
    return new SwarmRepository(topLevel, commonDir, options.swarm, worktreeRoot, gitQueueFor(commonDir));
  }

  get integrationBranch(): string {
    return integrationBranch(this.swarm);
  }

  /** Whether the user's tree has uncommitted changes, and what that means for the swarm. */
  async userTreeState(): Promise<UserTreeState> {
    const head = await headCommit(this.topLevel);
    const changed = await changedPaths(this.topLevel);
    const dirty = changed.length > 0;
    const message = dirty
      ? `Your working tree has ${changed.length} uncommitted change(s). Agents start from HEAD (${head.slice(0, 10)}); you can include your uncommitted state as a commit on the swarm's integration branch (your files and index stay as they are).`
      : `Agents start from HEAD (${head.slice(0, 10)}).`;
    return { head, dirty, changed: changed.slice(0, 50), message };
  }

  /**
   * Creates the integration branch from the user's HEAD, plus one commit of their uncommitted state when asked.
   * An existing integration branch is kept as it is (a resumed swarm), and its commit returned.
   */
  async start(options: {
    includeUncommitted: boolean;
  }): Promise<{ integrationSha: string; created: boolean; message: string }> {
    return this.queue.run(async () => {
      const existing = await refSha(this.topLevel, `refs/heads/${this.integrationBranch}`);
      if (existing)
        return {
          integrationSha: existing,
          created: false,
          message: `Resumed ${this.integrationBranch} at ${existing.slice(0, 10)}.`,
        };
      const head = await headCommit(this.topLevel);
      let start = head;
      let message = `Created ${this.integrationBranch} at HEAD ${head.slice(0, 10)}.`;
      if (options.includeUncommitted) {
        const snap = await snapshotUncommitted(this.topLevel, head, swarmIdentity);
        if (snap.commit) {
          start = snap.commit;
          message = `Created ${this.integrationBranch} at HEAD ${head.slice(0, 10)} plus your uncommitted changes (${snap.commit.slice(0, 10)}).`;
        }
      }
      // Empty old value: create only; fails rather than overwrite a branch someone made meanwhile.
      await withLockRetry(() =>
        runGit(this.topLevel, [
          "update-ref",
          "-m",
          "swarmboard: start swarm",
          `refs/heads/${this.integrationBranch}`,
          start,
          "",
        ]),
      );
      return { integrationSha: start, created: true, message };
    });
  }

  worktreePath(agent: string): string {
    return path.join(this.worktreeRoot, checkId("agent", agent));
  }

  /**
   * The agent's worktree on its branch, created from the integration branch the first time; with `sparseFolders`
   * a new worktree is a sparse checkout of the root's files and those folders (sparseCheckout.ts). A worktree that
   * exists already is returned as it is, sparse or not.
   */
  async addAgent(agent: string, options: { sparseFolders?: readonly string[] } = {}): Promise<AgentWorktree> {
    const branch = agentBranch(this.swarm, agent);
    const wtPath = this.worktreePath(agent);
    return this.queue.run(async () => {
      const listed = (await listWorktrees(this.topLevel)).find((w) => w.branch === `refs/heads/${branch}`);
      if (listed && !listed.prunable) {
        const gitDir = await absoluteGitDir(listed.path);
        // Added without checkout and stopped before its files came (a crash): check it out now, as it was meant.
        if (!existsSync(path.join(gitDir, "index")))
          await checkOutSparse(listed.path, gitDir, options.sparseFolders ?? []);
        return { agent, branch, path: realpathSync(listed.path), gitDir };
      }
      if (listed?.prunable) await withLockRetry(() => runGit(this.topLevel, ["worktree", "prune"]));
      await mkdir(this.worktreeRoot, { recursive: true });
      await this.clearAbandonedDir(wtPath);
      const hasBranch = (await refSha(this.topLevel, `refs/heads/${branch}`)) !== null;
      const integration = await refSha(this.topLevel, `refs/heads/${this.integrationBranch}`);
      if (!hasBranch && !integration) {
        throw new Error(`The swarm ${this.swarm} has no integration branch yet: call start() before adding agents.`);
      }
      const sparse = options.sparseFolders !== undefined;
      const add = sparse ? ["worktree", "add", "--no-checkout"] : ["worktree", "add"];
      const args = hasBranch
        ? [...add, wtPath, branch]
        : [...add, "--no-track", "-b", branch, wtPath, integration as string];
      await withLockRetry(() => runGit(this.topLevel, args));
      const gitDir = await absoluteGitDir(wtPath);
      if (options.sparseFolders !== undefined) await checkOutSparse(wtPath, gitDir, options.sparseFolders);
      return { agent, branch, path: realpathSync(wtPath), gitDir };
    });
  }

  /** A folder left where a worktree should go (a crash before git registered it) is removed only when empty. */
  private async clearAbandonedDir(wtPath: string): Promise<void> {
    const exists = await stat(wtPath).then(
      () => true,
      () => false,
    );
    if (!exists) return;
    const entries = await readdir(wtPath);
    if (entries.length > 0) {
      throw new Error(
        `${wtPath} exists, holds files and is not a registered worktree: move it away (it may hold an agent's work), then retry.`,
      );
    }
    await rm(wtPath, { recursive: true });
  }

  /** Agent worktrees of this swarm that git knows about. */
  async agentWorktrees(): Promise<Array<Omit<AgentWorktree, "gitDir"> & { prunable: boolean }>> {
    const prefix = swarmRefPrefix(this.swarm);
    return (await listWorktrees(this.topLevel))
      .filter((w) => w.branch?.startsWith(prefix) && w.branch !== `refs/heads/${this.integrationBranch}`)
      .map((w) => {
        const branch = (w.branch as string).slice("refs/heads/".length);
        return {
          agent: branch.slice(prefix.length - "refs/heads/".length),
          branch,
          path: w.path,
          prunable: w.prunable,
        };
      });
  }

  /** Every branch of this swarm (integration first), short names. */
  async branches(): Promise<string[]> {
    const out = await gitText(this.topLevel, ["for-each-ref", "--format=%(refname:short)", swarmRefPrefix(this.swarm)]);
    const names = out.split("\n").filter(Boolean);
    return names.sort((a, b) =>
      a === this.integrationBranch ? -1 : b === this.integrationBranch ? 1 : a.localeCompare(b),
    );
  }

  /** The commit a branch of this swarm points at, or null. */
  async branchSha(branch: string): Promise<string | null> {
    return refSha(this.topLevel, `refs/heads/${branch}`);
  }
}
