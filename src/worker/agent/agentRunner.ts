// One agent's cooperation loop, driven: ask the model for a call, run it, feed back the result with the
// messages and findings that arrived, let the watchdog judge progress. The loop's states live in
// src/core/agentLoop.ts; this file only connects them to the model, the board and the workspace.
import { AgentLoop, allowedInputs, isTerminal } from "../../core/agentLoop";
import { budgetLeftLine } from "../../core/budgetLeft";
import { agentBudgetExceeded } from "../../core/budgets";
import { finishedReleasePrefix } from "../../core/finishedTasks";
import { nudgeText } from "../../core/watchdog";
import type { LoopInput } from "../../protocol/agentLoop";
import { isKvFull, type ModelCall } from "./agentCalls";
import type { AgentRunnerDeps } from "./agentRunnerDeps";
import { dispatchCall } from "./callDispatch";
import { readback } from "./agentReadback";
import { holdWhilePaused } from "./agentPauses";
import { pauseForCells, type CellPauseEnd } from "./agentCellPause";
import { failedCall, type CallOutcome } from "./tools/toolDefinition";

export interface AgentEnd {
  readonly outcome: "done" | "failed";
  readonly reason: string;
  readonly report?: { readonly title: string; readonly body: string };
  readonly steps: number;
  readonly tokens: number;
}

export class AgentRunner {
  private readonly loop: AgentLoop;
  private steps = 0;
  private tokens = 0;
  private notes: string[] = [];
  /** The agent's own summary, when it ended by calling finish (or write_report). */
  private finishedBy: string | undefined;
  /** Set when the agent compacted while paused on a full pool: it has just read its brief. */
  private readBrief = false;

  constructor(private readonly deps: AgentRunnerDeps) {
    this.loop = new AgentLoop(deps.id);
    this.loop.onEvent((e) =>
      deps.emit({ type: "agent-state", agentId: deps.id, state: e.to, ...(e.reason ? { reason: e.reason } : {}) }),
    );
  }

  async run(brief: string): Promise<AgentEnd> {
    const { deps } = this;
    deps.emit({ type: "agent-state", agentId: deps.id, state: "starting" });
    deps.compaction?.begin(brief);
    const open = deps.opening === "call-result" ? () => deps.calls.answer(brief) : () => deps.calls.open(brief);
    if (!(await this.feed(open))) return this.end(undefined);
    deps.emit({ type: "agent-state", agentId: deps.id, state: "gather" });
    let report: AgentEnd["report"];
    while (!isTerminal(this.loop.state)) {
      const stopReason = this.stopReason();
      if (stopReason !== undefined) {
        this.apply(["stop"], stopReason);
        break;
      }
      if (deps.pause?.requested()) {
        await holdWhilePaused(deps.pause, deps, (inputs, reason) => this.apply(inputs, reason));
        continue;
      }
      const call = await deps.calls.next();
      this.tokens += call.tokens;
      this.steps++;
      if (call.kind !== "kv-full" && call.thought?.cut !== undefined) this.notes.push(call.thought.cut);
      const outcome = await this.outcomeOf(call);
      if (outcome === undefined) break;
      report ??= outcome.report;
      if (outcome.finished !== undefined) this.finishedBy = outcome.finished;
      this.apply(outcome.loopInputs, outcome.finished);
      if (isTerminal(this.loop.state)) break;
      await this.watch(outcome, call.kind === "call" ? call.name : "(malformed)");
      if (isTerminal(this.loop.state)) break;
      const text = readback(deps, outcome, this.loop.state === "gather", this.takeNotes(), outcome.left);
      deps.compaction?.record(call, outcome.ok, text);
      if (this.readBrief) {
        // It gave back its cells and read its compact brief; the next call answers that, not this result.
        this.readBrief = false;
        continue;
      }
      const usage = { steps: this.steps, tokens: this.tokens };
      const read = () => deps.compaction?.readOrCompact(text, usage) ?? deps.calls.answer(text);
      if (!(await this.feed(read))) break;
    }
    return this.end(report);
  }

  private takeNotes(): string[] {
    const notes = this.notes;
    this.notes = [];
    return notes;
  }

  /** Reads text into the agent; a full pool pauses it until cells are freed (false: it had to end). */
  private async feed(read: () => Promise<void>): Promise<boolean> {
    for (;;) {
      try {
        await read();
        return true;
      } catch (error) {
        if (!isKvFull(error)) throw error;
        const paused = await this.pauseForCells(`kv-full: ${(error as Error).message}`);
        if (paused === "ended") return false;
        // Its compact brief carries what it was reading (recorded before the read).
        if (paused === "compacted") return true;
      }
    }
  }

  private pauseForCells(reason: string): Promise<CellPauseEnd> {
    const usage = { steps: this.steps, tokens: this.tokens };
    return pauseForCells(this.deps, (inputs, why) => this.apply(inputs, why), reason, usage);
  }

  private async end(report: AgentEnd["report"]): Promise<AgentEnd> {
    const { deps } = this;
    if (!isTerminal(this.loop.state)) this.apply(["fail"], "ended unexpectedly");
    // A finished agent's claims are released as finished, so a resumed swarm does not redo those tasks.
    const endReason = this.loop.current.endReason ?? "ended";
    const releaseReason =
      this.finishedBy !== undefined ? `${finishedReleasePrefix}${this.finishedBy}` : `ended: ${endReason}`;
    for (const entry of await deps.board.releaseAgent(deps.id, releaseReason, deps.now()))
      deps.emit({ type: "board-entry", entry });
    const end = this.loop.current;
    return {
      outcome: end.state === "failed" ? "failed" : "done",
      reason: end.endReason ?? "ended",
      steps: this.steps,
      tokens: this.tokens,
      ...(report ? { report } : {}),
    };
  }

  private stopReason(): string | undefined {
    const { deps } = this;
    if (deps.signal.aborted) return "stopped by the user";
    const clock = deps.budgetAction();
    if (clock === "stop") return "the wall-clock budget is spent";
    if (clock === "fanIn" && !deps.isSynthesist) return "the wall clock is nearly spent: fan-in";
    // An agent that compacts lives past its share: its budget is the tokens it generated. One that cannot stops
    // when its private cells reach its share.
    if (deps.compaction !== undefined)
      return agentBudgetExceeded(deps.budgets, { steps: this.steps, tokens: this.tokens });
    const budgets = { ...deps.budgets, tokensPerAgent: Math.min(deps.budgets.tokensPerAgent, deps.tailBudget) };
    return agentBudgetExceeded(budgets, { steps: this.steps, tokens: deps.privateCells() });
  }

  /** The agent's budgets as its results carry them (src/core/budgetLeft.ts). */
  private budgetLeft(): string {
    const { deps } = this;
    const tokensPerAgent = Math.min(deps.budgets.tokensPerAgent, deps.tailBudget);
    const timeLeftMs = deps.timeLeftMs?.();
    return budgetLeftLine({
      ...(timeLeftMs !== undefined ? { timeLeftMs } : {}),
      until: deps.isSynthesist ? "the end" : "fan-in",
      tokensLeft: tokensPerAgent - deps.privateCells(),
      stepsLeft: deps.budgets.steps - this.steps,
    });
  }

  /** Runs the call (or turns a failed generation into a tool error); undefined when the agent must end. */
  private async outcomeOf(call: ModelCall): Promise<(CallOutcome & { left: string }) | undefined> {
    const { deps } = this;
    if (call.kind === "kv-full") {
      const paused = await this.pauseForCells("kv-full: no free KV cell for its next token");
      if (paused === "ended") return undefined;
      this.readBrief = paused === "compacted";
      return { ...failedCall("kv-full"), summary: "kv-full: call cut off", left: this.budgetLeft() };
    }
    const callId = `${deps.id}-call-${this.steps}`;
    // The thought streamed as it was written (src/worker/agent/agentThinking.ts); the call's own text follows it.
    const thought = call.thought?.text.trim() ? { thought: call.thought.text.trim() } : {};
    deps.emit({
      type: "agent-text",
      agentId: deps.id,
      text: call.kind === "call" ? `${call.name} ${call.argsText}\n` : `${call.text}\n`,
      tokens: call.tokens - (call.thought?.tokens ?? 0),
    });
    if (call.kind === "malformed") {
      deps.emit({ type: "tool-call", agentId: deps.id, callId, tool: "(malformed)", args: call.text, ...thought });
      const error = `invalid-call: ${call.reason}. Call one of your tools with JSON arguments.`;
      const left = this.budgetLeft();
      deps.emit({ type: "tool-result", agentId: deps.id, callId, ok: false, summary: error, left });
      return { ...failedCall(error), summary: error, left };
    }
    deps.emit({ type: "tool-call", agentId: deps.id, callId, tool: call.name, args: call.argsText, ...thought });
    const context = {
      agent: deps.id,
      board: deps.board,
      now: deps.now,
      signal: deps.signal,
      ...(deps.workspace ? { workspace: deps.workspace } : {}),
      ...(deps.web ? { web: deps.web } : {}),
      ...(deps.delegation
        ? { spawnSubagent: deps.delegation.spawnSubagent, collectSubagents: deps.delegation.collectSubagents }
        : {}),
      ...(deps.askUser ? { askUser: deps.askUser } : {}),
    };
    const outcome = await dispatchCall(context, deps.tools, call.name, call.argsText);
    const left = this.budgetLeft();
    deps.emit({ type: "tool-result", agentId: deps.id, callId, ok: outcome.ok, summary: outcome.summary, left });
    for (const entry of outcome.posted) deps.emit({ type: "board-entry", entry });
    return { ...outcome, left };
  }

  /** Applies the inputs the loop accepts, in order (a call can imply several steps, e.g. claim = gathered + granted). */
  private apply(inputs: readonly LoopInput[], reason?: string): void {
    for (const input of inputs) {
      if (!allowedInputs(this.loop.state).includes(input)) continue;
      this.loop.send(
        input,
        this.deps.now(),
        input === "stop" || input === "fail" || input === "pause" ? reason : undefined,
      );
    }
  }

  /** The watchdog's escalation (src/core/progressGuard.ts), made visible on the board and in the lane. */
  private async watch(outcome: CallOutcome, tool: string): Promise<void> {
    const { deps } = this;
    const guarded = await deps.guard.afterStep(
      deps.board,
      this.loop,
      {
        ...(outcome.args !== undefined ? { toolCall: { name: tool, args: outcome.args } } : {}),
        progress: outcome.progress,
        ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      },
      deps.now(),
    );
    for (const entry of guarded.released ?? []) deps.emit({ type: "board-entry", entry });
    const { verdict } = guarded;
    if (verdict.action === "none") return;
    const text = nudgeText(verdict.reason);
    const entry = await deps.board.postFinding({
      author: deps.id,
      kind: "OBSERVED",
      text: `${verdict.action}: ${text}`,
      time: deps.now(),
    });
    deps.emit({ type: "board-entry", entry });
    if (verdict.action === "nudge") this.notes.push(guarded.nudge ?? text);
    if (verdict.action === "releaseClaim") {
      // Stalled, its claims released: it starts again from gather with the nudge in its context.
      this.apply(["resume"]);
      this.notes.push(`${text} Your claims were released.`);
    }
  }
}
