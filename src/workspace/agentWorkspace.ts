// One agent's workspace: its worktree, its branch, and the tools that act on them, one typed method each.
// Arguments arrive parsed (the worker's tool definitions parse them once); a method throws what went wrong
// and `toToolError` turns it into a ToolError the agent can read (what happened, what to do).
import { randomUUID } from "node:crypto";
import type { ToolArgs, ToolError, ToolResult } from "../protocol/tools";
import { agentSandboxOptions } from "./agentSandbox";
import { denyAllApprover, type CommandApprover } from "./approvals";
import { probeBubblewrap, type BubblewrapProbe, type SandboxOptions } from "./bubblewrap";
import type { CommandPolicy } from "./commandPolicy";
import { runShellCommand } from "./commandRunner";
import { linkDependencyFolders, NO_DEPENDENCY_FOLDERS, type DependencyFolders } from "./dependencyFolders";
import { editFileTool, listDir, readFileTool, searchTool, ToolFailure, writeFileTool } from "./fileTools";
import { GitCommandError } from "./gitExec";
import { commitTool, gitDiffTool, gitStatusTool } from "./gitTools";
import { mergeProgress } from "./mergeProgress";
import type { MergeVerifier } from "./mergeVerifier";
import { PathRefusedError, protectedBy, type ContainmentRules } from "./pathContainment";
import { repositoryProtectedPaths } from "./repositoryProtection";
import { agentIdentity, type AgentWorktree, type SwarmRepository } from "./swarmRepository";

export interface AgentWorkspaceOptions {
  readonly policy: CommandPolicy;
  /** Who answers the policy's "ask" (default: deny everything). */
  readonly approver?: CommandApprover;
  /** Override the bubblewrap probe (tests; a host that knows better). */
  readonly sandbox?: BubblewrapProbe;
  /** Paths inside `.swarmboard/` this agent may write (its own swarm's recipe). */
  readonly writableExceptions?: readonly string[];
  readonly defaultTimeoutMs?: number;
  readonly maxOutputBytes?: number;
  /** The user's installed dependency folders, linked into the worktree and shown read-only. */
  readonly dependencies?: DependencyFolders;
  /** Runs the recipe's tests before merge_progress publishes (absent: merges say they are unverified). */
  readonly verifier?: MergeVerifier;
}

export class AgentWorkspace {
  readonly rules: ContainmentRules;

  private constructor(
    readonly repo: SwarmRepository,
    readonly worktree: AgentWorktree,
    protectedPaths: readonly string[],
    dependencyLinks: readonly string[],
    private readonly options: AgentWorkspaceOptions,
  ) {
    this.rules = {
      root: worktree.path,
      protectedPaths,
      writableExceptions: options.writableExceptions ?? [],
      dependencyLinks,
    };
  }

  /** Creates (or reopens) the agent's worktree and branch and returns its workspace. */
  static async open(repo: SwarmRepository, agent: string, options: AgentWorkspaceOptions): Promise<AgentWorkspace> {
    const worktree = await repo.addAgent(agent);
    const protectedPaths = await repositoryProtectedPaths(repo);
    const links = await linkDependencyFolders(worktree.path, options.dependencies ?? NO_DEPENDENCY_FOLDERS);
    return new AgentWorkspace(repo, worktree, protectedPaths, links, options);
  }

  /** What the agent's commands see (sandboxMounts.ts): its worktree, the git dir, the dependency folders. */
  get sandboxOptions(): SandboxOptions {
    const sources = (this.options.dependencies ?? NO_DEPENDENCY_FOLDERS).sources;
    const { protectedPaths, dependencyLinks } = this.rules;
    return agentSandboxOptions(this.repo, this.worktree.path, protectedPaths, sources, dependencyLinks);
  }

  listDir(args: ToolArgs<"list_dir">): Promise<ToolResult<"list_dir">> {
    return listDir(this.rules, args);
  }

  readFile(args: ToolArgs<"read_file">): Promise<ToolResult<"read_file">> {
    return readFileTool(this.rules, args);
  }

  search(args: ToolArgs<"search">): Promise<ToolResult<"search">> {
    return searchTool(this.rules, args);
  }

  writeFile(args: ToolArgs<"write_file">): Promise<ToolResult<"write_file">> {
    return writeFileTool(this.rules, args);
  }

  editFile(args: ToolArgs<"edit_file">): Promise<ToolResult<"edit_file">> {
    return editFileTool(this.rules, args);
  }

  gitStatus(): Promise<ToolResult<"git_status">> {
    return gitStatusTool(this.rules);
  }

  gitDiff(args: ToolArgs<"git_diff">): Promise<ToolResult<"git_diff">> {
    return gitDiffTool(this.rules, args);
  }

  commit(args: ToolArgs<"commit">): Promise<ToolResult<"commit">> {
    const { worktree, repo } = this;
    return commitTool(this.rules, worktree.gitDir, repo.queue, agentIdentity(worktree.agent), args);
  }

  mergeProgress(args: ToolArgs<"merge_progress">): Promise<ToolResult<"merge_progress">> {
    return mergeProgress(this.repo, this.worktree, {
      ...args,
      protectedBy: (p) => protectedBy(p, this.rules),
      dependencyLinks: this.rules.dependencyLinks ?? [],
      sandboxOptions: this.sandboxOptions,
      ...(this.options.verifier ? { verifier: this.options.verifier } : {}),
    });
  }

  /** Policy first, then approval where needed (always, without a sandbox), then the run. */
  async runCommand(args: ToolArgs<"run_command">, signal?: AbortSignal): Promise<ToolResult<"run_command">> {
    const verdict = this.options.policy.evaluate(args.command, { cwd: this.worktree.path });
    const sandbox = this.options.sandbox ?? (await probeBubblewrap());
    const base = {
      exitCode: null,
      signal: null,
      timedOut: false,
      sandboxed: sandbox.usable,
      output: "",
      truncated: false,
    };
    if (verdict.decision === "deny")
      return {
        ...base,
        decision: "deny",
        ran: false,
        reason: `Refused by the command policy: ${verdict.reasons.join("; ")}`,
      };
    const reasons = [...verdict.reasons.filter((r) => !r.startsWith("allow:"))];
    if (!sandbox.usable) reasons.push(`ask: no sandbox, so every command needs approval (${sandbox.reason})`);
    if (reasons.length > 0) {
      const approver = this.options.approver ?? denyAllApprover;
      const request = {
        id: randomUUID(),
        agent: this.worktree.agent,
        command: args.command,
        cwd: this.worktree.path,
        reasons,
        sandboxed: sandbox.usable,
      };
      if (!(await approver.requestApproval(request, signal))) {
        return {
          ...base,
          decision: "ask",
          ran: false,
          reason: `Not approved: ${reasons.join("; ")}. Try a simpler command or a tool instead.`,
        };
      }
    }
    const wt = this.worktree.path;
    const outcome = await runShellCommand({
      command: args.command,
      cwd: wt,
      timeoutMs: args.timeoutMs ?? this.options.defaultTimeoutMs ?? 120_000,
      maxOutputBytes: this.options.maxOutputBytes ?? 64_000,
      sandbox,
      sandboxOptions: this.sandboxOptions,
      ...(signal ? { signal } : {}),
    });
    const why = outcome.timedOut
      ? "Killed after the timeout."
      : reasons.length > 0
        ? "Ran after approval."
        : "Ran: allowed by the policy, inside the sandbox.";
    return { ...outcome, decision: reasons.length > 0 ? "ask" : "allow", ran: true, reason: why };
  }
}

/** The ToolError a workspace failure stands for; undefined for an error no tool of the workspace throws. */
export function knownToolError(err: unknown): ToolError | undefined {
  if (err instanceof PathRefusedError) return { code: err.code, message: err.message };
  if (err instanceof ToolFailure) return { code: err.code, message: err.message };
  if (err instanceof GitCommandError) return { code: "git-failed", message: err.message };
  const e = err as NodeJS.ErrnoException;
  if (e?.code === "ENOENT") return { code: "not-found", message: `Not found: ${e.message}` };
  if (e?.code === "ELOOP")
    return {
      code: "outside-worktree",
      message: "The path is (or became) a symlink; refused. Name the file it points to.",
    };
  return undefined;
}

/** Every failure as a ToolError the agent can read (an unknown one is an I/O failure). */
export function toToolError(err: unknown): ToolError {
  return knownToolError(err) ?? { code: "io-failed", message: err instanceof Error ? err.message : String(err) };
}
