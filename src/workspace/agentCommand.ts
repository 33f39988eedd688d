// One agent's shell command: the swarm's command policy first, then approval where it asks (always, when no
// sandbox is usable), then the run in the agent's own worktree inside the sandbox, with a timeout.
import { randomUUID } from "node:crypto";
import type { ToolArgs, ToolResult } from "../protocol/tools";
import { denyAllApprover, type CommandApprover } from "./approvals";
import { probeBubblewrap, type BubblewrapProbe, type SandboxOptions } from "./bubblewrap";
import type { CommandPolicy } from "./commandPolicy";
import { runShellCommand } from "./commandRunner";
import { outsideSandboxLine, probeContainment, type ContainmentProbe } from "./processContainment";
import type { AgentWorktree } from "./swarmRepository";

export interface AgentCommandOptions {
  readonly policy: CommandPolicy;
  readonly approver?: CommandApprover;
  readonly sandbox?: BubblewrapProbe;
  /** Override the probe for the pid namespace an approved unsandboxed command runs in (tests). */
  readonly containment?: ContainmentProbe;
  readonly defaultTimeoutMs?: number;
  readonly maxOutputBytes?: number;
}

export async function runAgentCommand(
  worktree: AgentWorktree,
  sandboxOptions: SandboxOptions,
  options: AgentCommandOptions,
  args: ToolArgs<"run_command">,
  signal?: AbortSignal,
): Promise<ToolResult<"run_command">> {
  const verdict = options.policy.evaluate(args.command, { cwd: worktree.path });
  const sandbox = options.sandbox ?? (await probeBubblewrap());
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
  let containment: ContainmentProbe | undefined;
  if (!sandbox.usable) {
    containment = options.containment ?? (await probeContainment());
    reasons.push(`ask: no sandbox, so every command needs approval (${sandbox.reason})`);
    reasons.push(outsideSandboxLine(containment));
  }
  if (reasons.length > 0) {
    const approver = options.approver ?? denyAllApprover;
    const request = {
      id: randomUUID(),
      agent: worktree.agent,
      command: args.command,
      cwd: worktree.path,
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
  const wt = worktree.path;
  const outcome = await runShellCommand({
    command: args.command,
    cwd: wt,
    timeoutMs: args.timeoutMs ?? options.defaultTimeoutMs ?? 120_000,
    maxOutputBytes: options.maxOutputBytes ?? 64_000,
    sandbox,
    sandboxOptions,
    ...(containment ? { containment } : {}),
    ...(signal ? { signal } : {}),
  });
  const why = outcome.timedOut
    ? "Killed after the timeout."
    : reasons.length > 0
      ? "Ran after approval."
      : "Ran: allowed by the policy, inside the sandbox.";
  return { ...outcome, decision: reasons.length > 0 ? "ask" : "allow", ran: true, reason: why };
}
