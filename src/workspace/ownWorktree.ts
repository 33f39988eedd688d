// Where one agent's reads and writes go: the swarm's shared read-only view (sharedReadView.ts) until a writer
// first needs a worktree of its own (its first claim, write, commit, merge or command), then that worktree. A
// reader never gets one and is refused every change. Making it adds the agent's branch and worktree (sparse in a
// large repository), links the dependency folders and sets the containment rules the tools and commands obey.
import type { WorkspaceAccess } from "../core/workspaceAccess";
import type { Scope } from "../protocol/board";
import { linkDependencyFolders, NO_DEPENDENCY_FOLDERS, type DependencyFolders } from "./dependencyFolders";
import type { ContainmentRules } from "./pathContainment";
import type { SharedReadView } from "./sharedReadView";
import { addOptions, sparseWorktreeAt, type SparseWorktree } from "./sparseWorktree";
import type { AgentWorktree, SwarmRepository } from "./swarmRepository";
import { ReadOnlyRefusal } from "./toolErrors";

/** How an agent's own worktree is made. */
export interface OwnWorktreeOptions {
  /** Paths inside `.swarmboard/` this agent may write (its own swarm's recipe). */
  readonly writableExceptions?: readonly string[];
  /** The user's installed dependency folders, linked into the worktree and shown read-only. */
  readonly dependencies?: DependencyFolders;
  /**
   * A writer's worktree is a sparse checkout of the root's files and its claimed folders, widened as it reads and
   * writes outside them (large repositories: swarmDisk.ts decides from the recipe's budget).
   */
  readonly sparse?: boolean;
  /** The real home whose credential files no hard link in the worktree may reach (default: the user's; tests). */
  readonly secretHome?: string;
}

export interface OwnTree {
  readonly worktree: AgentWorktree;
  readonly rules: ContainmentRules;
  /** Set when the worktree is sparse: the file tools widen its cone through it. */
  readonly sparse?: SparseWorktree;
}

export class OwnWorktree {
  /** Set from the first need on (while it is being made, too); cleared when making it failed, to try again. */
  private pending: Promise<OwnTree> | undefined;
  private made: OwnTree | undefined;

  constructor(
    private readonly repo: SwarmRepository,
    private readonly agent: string,
    private readonly access: WorkspaceAccess,
    /** Where the agent reads before it has a worktree of its own (absent: it gets its worktree at once). */
    private readonly view: SharedReadView | undefined,
    private readonly protectedPaths: readonly string[],
    private readonly options: OwnWorktreeOptions,
  ) {}

  /** Whether the agent's own worktree exists (in this run). */
  get exists(): boolean {
    return this.made !== undefined;
  }

  /** The agent still reads the shared view: it has changed nothing, and no worktree is being made for it. */
  get onSharedView(): boolean {
    return this.pending === undefined && this.view !== undefined;
  }

  /** The own worktree made already; throws, saying why, when there is none. */
  current(): OwnTree {
    if (this.made !== undefined) return this.made;
    const why = this.access === "reader" ? "it only reads" : "it has not claimed or written yet";
    throw new Error(`${this.agent} has no worktree of its own (${why}).`);
  }

  /** The own worktree, made now if it is not yet (sparse: with the folders of `scope`). */
  ensure(scope?: Scope): Promise<OwnTree> {
    this.pending ??= this.make(scope).then(
      (tree) => (this.made = tree),
      (error: unknown) => {
        this.pending = undefined;
        throw error;
      },
    );
    return this.pending;
  }

  /** Where a read looks: the agent's own worktree once it has one (or is making it), else the shared view. */
  async forRead(): Promise<Pick<OwnTree, "rules" | "sparse">> {
    if (this.pending !== undefined || this.view === undefined) return this.ensure();
    return { rules: await this.view.rules() };
  }

  /** The worktree a change needs; a reader is refused with a clear tool error. */
  async forWrite(action: string): Promise<OwnTree> {
    if (this.access === "reader") throw new ReadOnlyRefusal(action);
    return this.ensure();
  }

  private async make(scope: Scope | undefined): Promise<OwnTree> {
    const how = await addOptions(this.repo, this.options.sparse === true, scope);
    const worktree = await this.repo.addAgent(this.agent, how);
    const dependencyLinks = await linkDependencyFolders(
      worktree.path,
      this.options.dependencies ?? NO_DEPENDENCY_FOLDERS,
    );
    const rules = {
      root: worktree.path,
      protectedPaths: this.protectedPaths,
      writableExceptions: this.options.writableExceptions ?? [],
      dependencyLinks,
      secrets: {
        ...(this.options.secretHome !== undefined ? { home: this.options.secretHome } : {}),
        gitDir: this.repo.commonDir,
        checkouts: [this.repo.topLevel],
      },
    };
    const sparse = sparseWorktreeAt(worktree.path);
    return { worktree, rules, ...(sparse ? { sparse } : {}) };
  }
}
