// Throttles the swarm's event stream so that 16 agents producing tokens do not flood the host:
// events are queued and flushed at most once per interval; the noisy kinds are coalesced on the way
// (text deltas of one agent are joined, see coalesceInto). Each agent's order is kept and nothing else is
// dropped: the stream is the run's trace.
import type { SwarmEvent } from "../protocol/swarmEvents";

/** Timer functions, passed in so this stays pure and testable. */
export interface BatchScheduler {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export class SwarmEventThrottle {
  private queue: SwarmEvent[] = [];
  private timer: unknown;

  constructor(
    private readonly deliver: (events: SwarmEvent[]) => void,
    private readonly intervalMs: number,
    private readonly scheduler: BatchScheduler,
  ) {}

  push(event: SwarmEvent): void {
    this.coalesceInto(event);
    if (this.timer === undefined) {
      this.timer = this.scheduler.setTimeout(() => this.flush(), this.intervalMs);
    }
  }

  /** Sends what is queued now (also at the end of a run, so nothing is left behind). */
  flush(): void {
    if (this.timer !== undefined) {
      this.scheduler.clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.deliver(batch);
  }

  private coalesceInto(event: SwarmEvent): void {
    if (event.type === "agent-text") {
      // Agents decode in lockstep, so their deltas interleave: one agent's delta joins its last queued delta
      // when nothing else of that agent came after it (each agent's own order is kept; the view folds per agent).
      let at = this.queue.length - 1;
      while (at >= 0 && !concerns(this.queue[at]!, event.agentId)) at--;
      const last = this.queue[at];
      if (last?.type === "agent-text") {
        this.queue[at] = {
          ...last,
          text: last.text + event.text,
          tokens: last.tokens + event.tokens,
          time: event.time,
        };
        return;
      }
    }
    if (event.type === "call-progress") {
      // Only the newest progress of a call matters: it replaces the last one queued when nothing else of that agent
      // came after it.
      let at = this.queue.length - 1;
      while (at >= 0 && !concerns(this.queue[at]!, event.agentId)) at--;
      if (this.queue[at]?.type === "call-progress") {
        this.queue[at] = event;
        return;
      }
    }
    this.queue.push(event);
  }
}

/** Whether an event is about the agent (its own events, or a board entry it wrote). */
function concerns(event: SwarmEvent, agentId: string): boolean {
  if ("agentId" in event) return event.agentId === agentId;
  return event.type === "board-entry" && event.entry.author === agentId;
}
