// An agent's command that the policy sends to "ask" becomes a prompt: a notification naming the exact
// command, the agent and its working folder, with allow once / allow for this swarm / deny. A notification
// rather than a modal: several agents may ask at once and a modal would freeze the whole window for each.
// No answer in time is a deny (the worker times out on its own; the host says so). VS Code cannot close a
// notification from code, so a late click is answered with "already denied" instead.
import * as vscode from "vscode";
import type { ApprovalView } from "../../core/swarmView";
import { answerApprovalMethod } from "../../protocol/swarmRpc";
import type { HostLog } from "../hostLog";
import { waitText } from "../notices";
import type { SwarmStore } from "../swarm/swarmStore";
import type { WorkerProcess } from "../workerProcess";

export type ApprovalDecision = "once" | "swarm" | "deny";
/** "ended": the swarm ended first; "disposed": the extension is going away. */
type Outcome = ApprovalDecision | "timeout" | "ended" | "disposed";

/** The worker's wait before an unanswered request counts as denied (src/worker/swarm/swarmApprovals.ts). */
export const approvalTimeoutMs = 5 * 60_000;

const buttons: ReadonlyArray<{ title: string; decision: ApprovalDecision }> = [
  { title: "Allow once", decision: "once" },
  { title: "Allow for this swarm", decision: "swarm" },
  { title: "Deny", decision: "deny" },
];

export interface OpenPrompt extends ApprovalView {
  readonly swarmId: string;
  readonly message: string;
}

export class ApprovalPrompts implements vscode.Disposable {
  private readonly open = new Map<string, { prompt: OpenPrompt; settle(outcome: Outcome): void }>();
  /** Requests already settled here, while their answer is still on its way to the worker and the store. */
  private readonly settled = new Set<string>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly worker: WorkerProcess,
    private readonly store: SwarmStore,
    private readonly log: HostLog,
    private timeoutMs = approvalTimeoutMs,
  ) {
    this.subscription = store.onDidChange((change) => this.sync(change.swarmId));
  }

  /** Test hook: how long new prompts wait before they count as denied (the worker keeps its own 5 minutes). */
  setTimeoutMs(ms: number | undefined): void {
    this.timeoutMs = ms ?? approvalTimeoutMs;
  }

  /** Prompts on screen now (test hook). */
  pending(): readonly OpenPrompt[] {
    return [...this.open.values()].map((p) => p.prompt);
  }

  /** Answers a prompt as its button would (test hook); false when no such prompt is open. */
  answer(requestId: string, decision: ApprovalDecision): boolean {
    const entry = this.open.get(requestId);
    entry?.settle(decision);
    return entry !== undefined;
  }

  private sync(swarmId: string): void {
    const asked = this.store.swarm(swarmId)?.approvals ?? [];
    for (const a of asked)
      if (!this.open.has(a.requestId) && !this.settled.has(a.requestId)) void this.prompt(swarmId, a);
    // A request that left the view unanswered here (the swarm ended) closes its prompt.
    for (const [id, entry] of this.open) {
      if (entry.prompt.swarmId === swarmId && !asked.some((a) => a.requestId === id)) entry.settle("ended");
    }
  }

  private async prompt(swarmId: string, a: ApprovalView): Promise<void> {
    const message = `Swarmboard: ${a.agentId} (swarm ${swarmId}) asks to run \`${a.command}\` in ${a.cwd}. Why it asks: ${a.reason}. No answer within ${waitText(this.timeoutMs)} denies it.`;
    let settledAs: Outcome | undefined;
    let resolveOutcome: (outcome: Outcome) => void = () => undefined;
    const outcome = new Promise<Outcome>((resolve) => (resolveOutcome = resolve));
    const settle = (o: Outcome) => {
      settledAs ??= o;
      resolveOutcome(o);
    };
    this.open.set(a.requestId, { prompt: { ...a, swarmId, message }, settle });
    this.log.info(`approval asked: ${a.agentId} wants \`${a.command}\` in ${a.cwd} (${a.requestId})`);
    const timer = setTimeout(() => settle("timeout"), Math.max(0, a.time + this.timeoutMs - Date.now()));
    void vscode.window.showWarningMessage(message, ...buttons.map((b) => b.title)).then((title) => {
      const decision = buttons.find((b) => b.title === title)?.decision;
      // VS Code cannot take a notification down from code: a click after the request ended is told so.
      if (settledAs !== undefined && settledAs !== decision && decision !== undefined && decision !== "deny") {
        void vscode.window.showInformationMessage(lateClickText(settledAs, a));
        return;
      }
      // Dismissing the notification is an answer too: nothing runs that the user did not allow.
      settle(decision ?? "deny");
    });
    const result = await outcome;
    clearTimeout(timer);
    this.settled.add(a.requestId);
    this.open.delete(a.requestId);
    await this.finish(swarmId, a, result);
  }

  private async finish(swarmId: string, a: ApprovalView, result: Outcome): Promise<void> {
    if (result === "disposed") return;
    if (result === "ended") {
      this.log.info(`approval dropped: swarm ${swarmId} ended before \`${a.command}\` of ${a.agentId} was answered`);
      void vscode.window.showInformationMessage(
        `Swarmboard: swarm ${swarmId} ended before you answered; \`${a.command}\` of ${a.agentId} did not run.`,
      );
      return;
    }
    if (result === "timeout") {
      this.log.warn(`approval timed out: \`${a.command}\` of ${a.agentId} was denied (${a.requestId})`);
      void vscode.window.showInformationMessage(
        `Swarmboard: nobody answered in time, so \`${a.command}\` of ${a.agentId} was denied.`,
      );
      this.store.approvalAnswered(swarmId, a.requestId);
      return;
    }
    try {
      const { known } = await this.worker.request(answerApprovalMethod, {
        swarmId,
        requestId: a.requestId,
        decision: result,
      });
      this.log.info(
        `approval answered: ${result} for \`${a.command}\` of ${a.agentId} (${a.requestId})${known ? "" : " — too late, the request had already ended"}`,
      );
      if (!known)
        void vscode.window.showWarningMessage(
          `Swarmboard: \`${a.command}\` of ${a.agentId} had already timed out or its swarm stopped; it was denied and did not run.`,
        );
    } catch (error) {
      this.log.error(`approval answer failed: ${(error as Error).message}`);
      void vscode.window.showErrorMessage(
        `Swarmboard: your answer did not reach the worker (${(error as Error).message}); the command will be denied when its request times out.`,
      );
    }
    this.store.approvalAnswered(swarmId, a.requestId);
  }

  dispose(): void {
    this.subscription.dispose();
    for (const entry of this.open.values()) entry.settle("disposed");
  }
}

/** What a click on a prompt whose request already ended says. */
function lateClickText(settledAs: Outcome, a: ApprovalView): string {
  const what = `\`${a.command}\` of ${a.agentId}`;
  if (settledAs === "timeout")
    return `Swarmboard: ${what} was already denied: nobody answered in time. It did not run.`;
  if (settledAs === "ended" || settledAs === "disposed")
    return `Swarmboard: the swarm ended before the answer; ${what} did not run.`;
  return `Swarmboard: ${what} was already answered (${settledAs}); this click changes nothing.`;
}
