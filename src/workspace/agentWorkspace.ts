// One agent's workspace: its worktree, its branch, and the tools that act on them, one typed method each. A
// reader reads the swarm's shared read-only view (sharedReadView.ts) and is refused every change; a writer reads
// there too until its first claim, write or command makes its own worktree (so an agent that never changes code
// never costs a checkout).
// Arguments arrive parsed (the worker's tool definitions parse them once); a method throws what went wrong
// and `toToolError` (toolErrors.ts) turns it into a ToolError the agent can read (what happened, what to do).
import type { Scope } from "../protocol/board";
import type { ToolArgs, ToolResult } from "../protocol/tools";
import { agentSandboxOptions } from "./agentSandbox";
import { runAgentCommand } from "./agentCommand";
import { denyAllApprover, type CommandApprover } from "./approvals";
import { approveAutomationWrite } from "./automationPaths";
import type { BubblewrapProbe, SandboxOptions } from "./bubblewrap";
import type { CommandPolicy } from "./commandPolicy";
import { linkDependencyFolders, NO_DEPENDENCY_FOLDERS, type DependencyFolders } from "./dependencyFolders";
import { editFileTool, listDir, readFileTool, searchTool, writeFileTool } from "./fileTools";
import { commitTool, gitDiffTool, gitStatusTool } from "./gitTools";
import { mergeProgress } from "./mergeProgress";
import type { MergeVerifier } from "./mergeVerifier";
import { protectedBy, resolveInWorktree, type ContainmentRules } from "./pathContainment";
import { repositoryProtectedPaths } from "./repositoryProtection";
import { agentBranch } from "./branchNames";
import type { SharedReadView } from "./sharedReadView";
import { agentIdentity, type AgentWorktree, type SwarmRepository } from "./swarmRepository";
import { addOptions, sparseWorktreeAt, type SparseWorktree } from "./sparseWorktree";
import { ReadOnlyRefusal } from "./toolErrors";
import type { ContainmentProbe } from "./processContainment";

export interface AgentWorkspaceOptions {
  readonly policy: CommandPolicy;
  /** Who answers the policy's "ask" (default: deny everything). */
  readonly approver?: CommandApprover;
  /** Override the bubblewrap probe (tests; a host that knows better). */
  readonly sandbox?: BubblewrapProbe;
  /** Override the probe for an approved unsandboxed command's own pid namespace (tests). */
  readonly containment?: ContainmentProbe;
  /** Paths inside `.swarmboard/` this agent may write (its own swarm's recipe). */
  readonly writableExceptions?: readonly string[];
  readonly defaultTimeoutMs?: number;
  readonly maxOutputBytes?: number;
  /** The user's installed dependency folders, linked into the worktree and shown read-only. */
  readonly dependencies?: DependencyFolders;
  /** Runs the recipe's tests before merge_progress publishes (absent: merges say they are unverified). */
  readonly verifier?: MergeVerifier;
  /**
   * A writer's worktree is a sparse checkout of the root's files and its claimed folders, widened as it reads and
   * writes outside them (large repositories: swarmDisk.ts decides from the recipe's budget).
   */
  readonly sparse?: boolean;
  /** The real home whose credential files no hard link in the worktree may reach (default: the user's; tests). */
  readonly secretHome?: string;
  /** The recipe allows writes to CI and automation files without asking (recipe `allowAutomationFiles`). */
  readonly allowAutomationFiles?: boolean;
}

/** Who an agent is to the workspace: a reader never writes; a writer gets its own worktree when it first needs one. */
export type WorkspaceAccess = "reader" | "writer";

interface OwnTree {
  readonly worktree: AgentWorktree;
  readonly rules: ContainmentRules;
  /** Set when the worktree is sparse: the file tools widen its cone through it. */
  readonly sparse?: SparseWorktree;
}

export class AgentWorkspace {
  private own: Promise<OwnTree> | undefined;
  private made: OwnTree | undefined;

  private constructor(
    readonly repo: SwarmRepository,
    readonly agent: string,
    readonly access: WorkspaceAccess,
    /** Where the agent reads before it has a worktree of its own (absent: it gets its worktree at once). */
    private readonly view: SharedReadView | undefined,
    private readonly protectedPaths: readonly string[],
    private readonly options: AgentWorkspaceOptions,
  ) {}

  /** Creates (or reopens) the agent's worktree and branch now and returns its workspace. */
  static async open(repo: SwarmRepository, agent: string, options: AgentWorkspaceOptions): Promise<AgentWorkspace> {
    const workspace = new AgentWorkspace(
      repo,
      agent,
      "writer",
      undefined,
      await repositoryProtectedPaths(repo),
      options,
    );
    await workspace.prepare();
    return workspace;
  }

  /**
   * A workspace that reads through the swarm's shared view and, for a writer, makes its worktree on the first
   * claim, write, commit, merge or command (a worktree left by an interrupted run is reopened then).
   */
  static async onDemand(
    repo: SwarmRepository,
    agent: string,
    access: WorkspaceAccess,
    view: SharedReadView,
    options: AgentWorkspaceOptions,
  ): Promise<AgentWorkspace> {
    const workspace = new AgentWorkspace(repo, agent, access, view, await repositoryProtectedPaths(repo), options);
    // Resumed: a writer whose worktree an earlier run made carries on in it (with whatever it left there).
    const had = access === "writer" && (await repo.agentWorktrees()).some((w) => w.agent === agent && !w.prunable);
    if (had) await workspace.prepare();
    return workspace;
  }

  /** The branch the agent's work lands on (readers have none). */
  get branch(): string | undefined {
    return this.access === "writer" ? agentBranch(this.repo.swarm, this.agent) : undefined;
  }

  /** Whether the agent's own worktree exists (in this run). */
  get hasWorktree(): boolean {
    return this.made !== undefined;
  }

  /** The agent's own worktree; only after `prepare` (or the first write) made it. */
  get worktree(): AgentWorktree {
    return this.ownTree().worktree;
  }

  /** The rules of the agent's own worktree (see `worktree`). */
  get rules(): ContainmentRules {
    return this.ownTree().rules;
  }

  /**
   * Makes the writer's worktree now (its first claim; sparse: with the claimed scope's folders, or adds them to a
   * sparse worktree made before); a reader keeps reading the shared view.
   */
  async prepare(scope?: Scope): Promise<void> {
    if (this.access !== "writer") return;
    const own = await this.ensureOwn(scope);
    if (scope !== undefined && own.sparse) await own.sparse.widenToScope(scope);
  }

  private ownTree(): OwnTree {
    if (this.made !== undefined) return this.made;
    const why = this.access === "reader" ? "it only reads" : "it has not claimed or written yet";
    throw new Error(`${this.agent} has no worktree of its own (${why}).`);
  }

  private ensureOwn(scope?: Scope): Promise<OwnTree> {
    this.own ??= this.makeOwn(scope).then(
      (tree) => (this.made = tree),
      (error: unknown) => {
        this.own = undefined;
        throw error;
      },
    );
    return this.own;
  }

  private async makeOwn(scope: Scope | undefined): Promise<OwnTree> {
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

  /** Where a read looks: the agent's own worktree once it has one (or is making it), else the shared view. */
  private async readTree(): Promise<Pick<OwnTree, "rules" | "sparse">> {
    if (this.own !== undefined || this.view === undefined) return this.ensureOwn();
    return { rules: await this.view.rules() };
  }

  /** The worktree a change needs; a reader is refused with a clear tool error. */
  private async writeTree(action: string): Promise<OwnTree> {
    if (this.access === "reader") throw new ReadOnlyRefusal(action);
    return this.ensureOwn();
  }

  /** What the agent's commands see (sandboxMounts.ts): its worktree, the git dir, the dependency folders. */
  get sandboxOptions(): SandboxOptions {
    const sources = (this.options.dependencies ?? NO_DEPENDENCY_FOLDERS).sources;
    const { protectedPaths, dependencyLinks } = this.rules;
    return agentSandboxOptions(this.repo, this.worktree.path, protectedPaths, sources, dependencyLinks);
  }

  async listDir(args: ToolArgs<"list_dir">): Promise<ToolResult<"list_dir">> {
    const { rules, sparse } = await this.readTree();
    return sparse ? sparse.listDir(rules, args) : listDir(rules, args);
  }

  /** A file outside a sparse cone brings its folder in first (sparseWorktree.ts). */
  async readFile(args: ToolArgs<"read_file">): Promise<ToolResult<"read_file">> {
    const { rules, sparse } = await this.readTree();
    await sparse?.holdForRead(rules, args.path);
    return readFileTool(rules, args);
  }

  async search(args: ToolArgs<"search">): Promise<ToolResult<"search">> {
    const { rules, sparse } = await this.readTree();
    return sparse ? sparse.search(rules, args) : searchTool(rules, args);
  }

  async writeFile(args: ToolArgs<"write_file">): Promise<ToolResult<"write_file">> {
    const { rules, sparse } = await this.writeTree("write_file");
    await this.askForAutomation("write_file", rules, args.path);
    await sparse?.holdForWrite(rules, args.path);
    return writeFileTool(rules, args);
  }

  async editFile(args: ToolArgs<"edit_file">): Promise<ToolResult<"edit_file">> {
    const { rules, sparse } = await this.writeTree("edit_file");
    await this.askForAutomation("edit_file", rules, args.path);
    await sparse?.holdForWrite(rules, args.path);
    return editFileTool(rules, args);
  }

  /** A write to a CI or automation file asks the person first, unless the recipe allows it (automationPaths.ts). */
  private async askForAutomation(tool: string, rules: ContainmentRules, relPath: string): Promise<void> {
    const { rel } = await resolveInWorktree(relPath, "write", rules);
    await approveAutomationWrite(
      { agent: this.agent, cwd: rules.root, tool, rel },
      { approver: this.options.approver ?? denyAllApprover, allowed: this.options.allowAutomationFiles === true },
    );
  }

  /** Without a worktree of its own the agent has changed nothing: an empty status, no tree made for it. */
  async gitStatus(): Promise<ToolResult<"git_status">> {
    if (this.own === undefined && this.view !== undefined) return { files: [], merging: false, truncated: false };
    return gitStatusTool((await this.ensureOwn()).rules);
  }

  async gitDiff(args: ToolArgs<"git_diff">): Promise<ToolResult<"git_diff">> {
    if (this.own === undefined && this.view !== undefined) return { diff: "", truncated: false };
    return gitDiffTool((await this.ensureOwn()).rules, args);
  }

  async commit(args: ToolArgs<"commit">): Promise<ToolResult<"commit">> {
    const { worktree, rules } = await this.writeTree("commit");
    return commitTool(rules, worktree.gitDir, this.repo.queue, agentIdentity(worktree.agent), args);
  }

  async mergeProgress(args: ToolArgs<"merge_progress">): Promise<ToolResult<"merge_progress">> {
    const { worktree, rules, sparse } = await this.writeTree("merge_progress");
    return mergeProgress(this.repo, worktree, {
      ...args,
      protectedBy: (p) => protectedBy(p, rules),
      dependencyLinks: rules.dependencyLinks ?? [],
      sandboxOptions: this.sandboxOptions,
      ...(this.options.verifier ? { verifier: this.options.verifier } : {}),
      // The tests need the whole tree: a sparse worktree's merged commit is tested in a full scratch checkout.
      ...(sparse ? { verifyWholeTree: true } : {}),
    });
  }

  /** Policy first, then approval where needed (always, without a sandbox), then the run (agentCommand.ts). */
  async runCommand(args: ToolArgs<"run_command">, signal?: AbortSignal): Promise<ToolResult<"run_command">> {
    const { worktree, sparse } = await this.writeTree("run_command");
    await sparse?.holdForCommand(args.command);
    return runAgentCommand(worktree, this.sandboxOptions, this.options, args, signal);
  }
}
