// One agent's workspace: its worktree, its branch, and the tools that act on them, one typed method each. A
// reader reads the swarm's shared read-only view (sharedReadView.ts) and is refused every change; a writer reads
// there too until its first claim, write or command makes its own worktree (ownWorktree.ts; so an agent that
// never changes code never costs a checkout).
// Arguments arrive parsed (the worker's tool definitions parse them once); a method throws what went wrong
// and `toToolError` (toolErrors.ts) turns it into a ToolError the agent can read (what happened, what to do).
import type { WorkspaceAccess } from "../core/workspaceAccess";
import type { Scope } from "../protocol/board";
import type { ToolArgs, ToolResult } from "../protocol/tools";
import { agentSandboxOptions } from "./agentSandbox";
import { runAgentCommand } from "./agentCommand";
import { denyAllApprover, type CommandApprover } from "./approvals";
import { approveAutomationWrite } from "./automationPaths";
import type { BubblewrapProbe, SandboxOptions } from "./bubblewrap";
import type { CommandPolicy } from "./commandPolicy";
import { NO_DEPENDENCY_FOLDERS } from "./dependencyFolders";
import { editFileTool, listDir, readFileTool, searchTool, writeFileTool } from "./fileTools";
import { commitTool, gitDiffTool, gitStatusTool } from "./gitTools";
import { mergeProgress } from "./mergeProgress";
import type { MergeVerifier } from "./mergeVerifier";
import { OwnWorktree, type OwnWorktreeOptions } from "./ownWorktree";
import { protectedBy, resolveInWorktree, type ContainmentRules } from "./pathContainment";
import { branchChangedPaths } from "./repoFacts";
import { repositoryProtectedPaths } from "./repositoryProtection";
import { agentBranch } from "./branchNames";
import type { SharedReadView } from "./sharedReadView";
import { agentIdentity, type AgentWorktree, type SwarmRepository } from "./swarmRepository";
import type { ContainmentProbe } from "./processContainment";

export interface AgentWorkspaceOptions extends OwnWorktreeOptions {
  readonly policy: CommandPolicy;
  /** Who answers the policy's "ask" (default: deny everything). */
  readonly approver?: CommandApprover;
  /** Override the bubblewrap probe (tests; a host that knows better). */
  readonly sandbox?: BubblewrapProbe;
  /** Override the probe for an approved unsandboxed command's own pid namespace (tests). */
  readonly containment?: ContainmentProbe;
  readonly defaultTimeoutMs?: number;
  readonly maxOutputBytes?: number;
  /** Runs the recipe's tests before merge_progress publishes (absent: merges say they are unverified). */
  readonly verifier?: MergeVerifier;
  /** The recipe allows writes to CI and automation files without asking (recipe `allowAutomationFiles`). */
  readonly allowAutomationFiles?: boolean;
  /** The recipe's `review.approvals`: merges need this many peer approvals and an integrator merges (0: none). */
  readonly reviewApprovals?: number;
  /** The repository's protected paths when the swarm read them already (else read here: git config, 3 processes). */
  readonly protectedPaths?: readonly string[];
}

export class AgentWorkspace {
  private readonly own: OwnWorktree;

  private constructor(
    readonly repo: SwarmRepository,
    readonly agent: string,
    readonly access: WorkspaceAccess,
    /** Where the agent reads before it has a worktree of its own (absent: it gets its worktree at once). */
    view: SharedReadView | undefined,
    protectedPaths: readonly string[],
    private readonly options: AgentWorkspaceOptions,
  ) {
    this.own = new OwnWorktree(repo, agent, access, view, protectedPaths, options);
  }

  /** Creates (or reopens) the agent's worktree and branch now and returns its workspace. */
  static async open(repo: SwarmRepository, agent: string, options: AgentWorkspaceOptions): Promise<AgentWorkspace> {
    const workspace = new AgentWorkspace(
      repo,
      agent,
      "writer",
      undefined,
      options.protectedPaths ?? (await repositoryProtectedPaths(repo)),
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
    const protectedPaths = options.protectedPaths ?? (await repositoryProtectedPaths(repo));
    const workspace = new AgentWorkspace(repo, agent, access, view, protectedPaths, options);
    // Resumed: a writer whose worktree an earlier run made carries on in it (with whatever it left there).
    const had = access === "writer" && (await repo.agentWorktrees()).some((w) => w.agent === agent && !w.prunable);
    if (had) await workspace.prepare();
    return workspace;
  }

  /** The branch the agent's work lands on (readers have none). */
  get branch(): string | undefined {
    return this.access === "writer" ? agentBranch(this.repo.swarm, this.agent) : undefined;
  }

  /** What tests a merge (the integrator's too); absent when the recipe has no test command. */
  get verifier(): MergeVerifier | undefined {
    return this.options.verifier;
  }

  /** Approvals a branch needs before it merges (0: no review, each agent merges its own progress). */
  get reviewApprovals(): number {
    return this.options.reviewApprovals ?? 0;
  }

  /** Whether the agent's own worktree exists (in this run). */
  get hasWorktree(): boolean {
    return this.own.exists;
  }

  /** The agent's own worktree; only after `prepare` (or the first write) made it. */
  get worktree(): AgentWorktree {
    return this.own.current().worktree;
  }

  /** The rules of the agent's own worktree (see `worktree`). */
  get rules(): ContainmentRules {
    return this.own.current().rules;
  }

  /**
   * Makes the writer's worktree now (its first claim; sparse: with the claimed scope's folders, or adds them to a
   * sparse worktree made before); a reader keeps reading the shared view.
   */
  async prepare(scope?: Scope): Promise<void> {
    if (this.access !== "writer") return;
    const own = await this.own.ensure(scope);
    if (scope !== undefined && own.sparse) await own.sparse.widenToScope(scope);
  }

  /** What the agent's commands see (sandboxMounts.ts): its worktree, the git dir, the dependency folders. */
  get sandboxOptions(): SandboxOptions {
    const sources = (this.options.dependencies ?? NO_DEPENDENCY_FOLDERS).sources;
    const { protectedPaths, dependencyLinks } = this.rules;
    return agentSandboxOptions(this.repo, this.worktree.path, protectedPaths, sources, dependencyLinks);
  }

  async listDir(args: ToolArgs<"list_dir">): Promise<ToolResult<"list_dir">> {
    const { rules, sparse } = await this.own.forRead();
    return sparse ? sparse.listDir(rules, args) : listDir(rules, args);
  }

  /** A file outside a sparse cone brings its folder in first (sparseWorktree.ts). */
  async readFile(args: ToolArgs<"read_file">): Promise<ToolResult<"read_file">> {
    const { rules, sparse } = await this.own.forRead();
    await sparse?.holdForRead(rules, args.path);
    return readFileTool(rules, args);
  }

  async search(args: ToolArgs<"search">): Promise<ToolResult<"search">> {
    const { rules, sparse } = await this.own.forRead();
    return sparse ? sparse.search(rules, args) : searchTool(rules, args);
  }

  async writeFile(args: ToolArgs<"write_file">): Promise<ToolResult<"write_file">> {
    const { rules, sparse } = await this.own.forWrite("write_file");
    await this.askForAutomation("write_file", rules, args.path);
    await sparse?.holdForWrite(rules, args.path);
    return writeFileTool(rules, args);
  }

  async editFile(args: ToolArgs<"edit_file">): Promise<ToolResult<"edit_file">> {
    const { rules, sparse } = await this.own.forWrite("edit_file");
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
    if (this.own.onSharedView) return { files: [], merging: false, truncated: false };
    return gitStatusTool((await this.own.ensure()).rules);
  }

  async gitDiff(args: ToolArgs<"git_diff">): Promise<ToolResult<"git_diff">> {
    if (this.own.onSharedView) return { diff: "", truncated: false };
    return gitDiffTool((await this.own.ensure()).rules, args);
  }

  async commit(args: ToolArgs<"commit">): Promise<ToolResult<"commit">> {
    const { worktree, rules } = await this.own.forWrite("commit");
    return commitTool(rules, worktree.gitDir, this.repo.queue, agentIdentity(worktree.agent), args);
  }

  async mergeProgress(args: ToolArgs<"merge_progress">): Promise<ToolResult<"merge_progress">> {
    const { worktree, rules, sparse } = await this.own.forWrite("merge_progress");
    return mergeProgress(this.repo, worktree, {
      ...args,
      protectedBy: (p) => protectedBy(p, rules),
      dependencyLinks: rules.dependencyLinks ?? [],
      sandboxOptions: this.sandboxOptions,
      ...(this.options.verifier ? { verifier: this.options.verifier } : {}),
      // The tests need the whole tree: a sparse worktree's merged commit is tested in a full scratch checkout.
      ...(sparse ? { verifyWholeTree: true } : {}),
      ...(this.reviewApprovals > 0 ? { review: { approvals: this.reviewApprovals } } : {}),
    });
  }

  /** Files the agent's branch changed since it left the integration branch (none before it has a worktree). */
  async branchChanges(): Promise<string[]> {
    if (this.access !== "writer" || !this.own.exists) return [];
    return (await branchChangedPaths(this.worktree.path, `refs/heads/${this.repo.integrationBranch}`)) ?? [];
  }

  /** Policy first, then approval where needed (always, without a sandbox), then the run (agentCommand.ts). */
  async runCommand(args: ToolArgs<"run_command">, signal?: AbortSignal): Promise<ToolResult<"run_command">> {
    const { worktree, sparse } = await this.own.forWrite("run_command");
    await sparse?.holdForCommand(args.command);
    return runAgentCommand(worktree, this.sandboxOptions, this.options, args, signal);
  }
}
