// A swarm's approvals: a command the policy asks about goes out as an `approval-request` event and waits
// for the user's answer (once, for the rest of this swarm, or deny). No answer in time is a deny. However it ended,
// an `approval-ended` event says so: every window showing the request (the shared worker serves several) drops it,
// and the first answer is the one that counts.
import type { CommandApprover, ApprovalRequest } from "../../workspace/approvals";
import { EventApprover } from "../../workspace/approvals";

export type ApprovalOutcome = "once" | "swarm" | "deny" | "timed-out" | "withdrawn";

export class SwarmApprovals implements CommandApprover {
  private readonly events: EventApprover;
  private readonly allowedForSwarm = new Set<string>();
  private readonly commands = new Map<string, string>();
  /** The answers given, until their request ends. */
  private readonly answers = new Map<string, "once" | "swarm" | "deny">();

  constructor(
    onRequest: (request: ApprovalRequest) => void,
    private readonly onEnded: (request: ApprovalRequest, outcome: ApprovalOutcome) => void = () => undefined,
    timeoutMs = 5 * 60_000,
  ) {
    this.events = new EventApprover(timeoutMs);
    this.events.onRequest(onRequest);
  }

  requestApproval(request: ApprovalRequest, signal?: AbortSignal): Promise<boolean> {
    const remembered = request.rememberAs ?? request.command;
    if (this.allowedForSwarm.has(remembered)) return Promise.resolve(true);
    this.commands.set(request.id, remembered);
    return this.events.requestApproval(request, signal).then((approved) => {
      this.commands.delete(request.id);
      const answer = this.answers.get(request.id);
      this.answers.delete(request.id);
      this.onEnded(request, answer ?? (signal?.aborted ? "withdrawn" : "timed-out"));
      return approved;
    });
  }

  /** The user's answer; false when the request is unknown or was already answered (or timed out). */
  answer(requestId: string, decision: "once" | "swarm" | "deny"): boolean {
    const command = this.commands.get(requestId);
    const known = this.events.answer(requestId, decision !== "deny");
    if (!known) return false;
    if (decision === "swarm" && command !== undefined) this.allowedForSwarm.add(command);
    this.answers.set(requestId, decision);
    return true;
  }
}
