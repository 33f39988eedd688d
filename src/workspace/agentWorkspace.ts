// One agent's workspace: its worktree, its branch, and the tools that act on them. `call` is the boundary the
// agent loop uses: it parses the arguments with the tool's zod schema, runs the tool, and turns every failure
// into a ToolError the agent can read (what happened, what to do), never a throw.
import { randomUUID } from "node:crypto";
import { toolArgSchemas, type ToolArgs, type ToolError, type ToolName, type ToolResult } from "../protocol/tools";
import { agentSandboxOptions } from "./agentSandbox";
import { denyAllApprover, type CommandApprover } from "./approvals";
import { probeBubblewrap, type BubblewrapProbe } from "./bubblewrap";
import type { CommandPolicy } from "./commandPolicy";
import { runShellCommand } from "./commandRunner";
import { editFileTool, listDir, readFileTool, searchTool, ToolFailure, writeFileTool } from "./fileTools";
import { GitCommandError } from "./gitExec";
import { commitTool, gitDiffTool, gitStatusTool } from "./gitTools";
import { mergeProgress } from "./mergeProgress";
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
}

export type ToolCallOutcome<N extends ToolName = ToolName> =
  { readonly ok: true; readonly result: ToolResult<N> } | { readonly ok: false; readonly error: ToolError };

export class AgentWorkspace {
  readonly rules: ContainmentRules;

  private constructor(
    readonly repo: SwarmRepository,
    readonly worktree: AgentWorktree,
    protectedPaths: readonly string[],
    private readonly options: AgentWorkspaceOptions,
  ) {
    this.rules = { root: worktree.path, protectedPaths, writableExceptions: options.writableExceptions ?? [] };
  }

  /** Creates (or reopens) the agent's worktree and branch and returns its workspace. */
  static async open(repo: SwarmRepository, agent: string, options: AgentWorkspaceOptions): Promise<AgentWorkspace> {
    const worktree = await repo.addAgent(agent);
    const protectedPaths = await repositoryProtectedPaths(repo);
    return new AgentWorkspace(repo, worktree, protectedPaths, options);
  }

  /** Parses `rawArgs` with the tool's schema and runs it; failures come back as data. */
  call<N extends ToolName>(name: N, rawArgs: unknown, signal?: AbortSignal): Promise<ToolCallOutcome<N>>;
  call(name: string, rawArgs: unknown, signal?: AbortSignal): Promise<ToolCallOutcome>;
  async call(name: string, rawArgs: unknown, signal?: AbortSignal): Promise<ToolCallOutcome> {
    if (!(name in toolArgSchemas)) {
      return {
        ok: false,
        error: {
          code: "invalid-args",
          message: `There is no tool ${JSON.stringify(name)}; the tools are: ${Object.keys(toolArgSchemas).join(", ")}.`,
        },
      };
    }
    const tool = name as ToolName;
    const parsed = toolArgSchemas[tool].safeParse(rawArgs ?? {});
    if (!parsed.success) {
      return {
        ok: false,
        error: {
          code: "invalid-args",
          message: `Arguments of ${tool} are invalid: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(args)"}: ${i.message}`).join("; ")}`,
        },
      };
    }
    try {
      return { ok: true, result: await this.dispatch(tool, parsed.data, signal) };
    } catch (err) {
      return { ok: false, error: toToolError(err) };
    }
  }

  private dispatch(tool: ToolName, args: unknown, signal?: AbortSignal): Promise<ToolResult<ToolName>> {
    switch (tool) {
      case "list_dir":
        return listDir(this.rules, args as ToolArgs<"list_dir">);
      case "read_file":
        return readFileTool(this.rules, args as ToolArgs<"read_file">);
      case "search":
        return searchTool(this.rules, args as ToolArgs<"search">);
      case "write_file":
        return writeFileTool(this.rules, args as ToolArgs<"write_file">);
      case "edit_file":
        return editFileTool(this.rules, args as ToolArgs<"edit_file">);
      case "run_command":
        return this.runCommand(args as ToolArgs<"run_command">, signal);
      case "git_status":
        return gitStatusTool(this.rules);
      case "git_diff":
        return gitDiffTool(this.rules, args as ToolArgs<"git_diff">);
      case "commit":
        return commitTool(
          this.rules,
          this.worktree.gitDir,
          this.repo.queue,
          agentIdentity(this.worktree.agent),
          args as ToolArgs<"commit">,
        );
      case "merge_progress":
        return mergeProgress(this.repo, this.worktree, {
          ...(args as ToolArgs<"merge_progress">),
          protectedBy: (p) => protectedBy(p, this.rules),
        });
    }
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
      sandboxOptions: agentSandboxOptions(this.repo, wt, this.rules.protectedPaths),
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

export function toToolError(err: unknown): ToolError {
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
  return { code: "io-failed", message: e instanceof Error ? e.message : String(err) };
}
