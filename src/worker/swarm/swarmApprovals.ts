// A swarm's approvals: a command the policy asks about goes out as an `approval-request` event and waits
// for the user's answer (once, for the rest of this swarm, or deny). No answer in time is a deny.
import type { CommandApprover, ApprovalRequest } from "../../workspace/approvals";
import { EventApprover } from "../../workspace/approvals";

export class SwarmApprovals implements CommandApprover {
  private readonly events: EventApprover;
  private readonly allowedForSwarm = new Set<string>();
  private readonly commands = new Map<string, string>();

  constructor(onRequest: (request: ApprovalRequest) => void, timeoutMs = 5 * 60_000) {
    this.events = new EventApprover(timeoutMs);
    this.events.onRequest(onRequest);
  }

  requestApproval(request: ApprovalRequest, signal?: AbortSignal): Promise<boolean> {
    const remembered = request.rememberAs ?? request.command;
    if (this.allowedForSwarm.has(remembered)) return Promise.resolve(true);
    this.commands.set(request.id, remembered);
    return this.events.requestApproval(request, signal).finally(() => this.commands.delete(request.id));
  }

  /** The user's answer; false when the request is unknown or was already answered (or timed out). */
  answer(requestId: string, decision: "once" | "swarm" | "deny"): boolean {
    const command = this.commands.get(requestId);
    if (decision === "swarm" && command !== undefined) this.allowedForSwarm.add(command);
    return this.events.answer(requestId, decision !== "deny");
  }
}
