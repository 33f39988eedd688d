// The router's desk: the triggers the fast path sent to the router, queued while it works and handed over
// together at its next wait_for_triggers (one tool result: one append, decided in one prefill), and its
// decisions, each checked against what it was shown before the standing swarm carries it out.
import type { RouterDecision, Trigger } from "../../protocol/triggers";

/** Carries out a decision (logs it first); resolves with what the router reads back. */
export type DecisionHandler = (trigger: Trigger, decision: RouterDecision, by: string) => Promise<string>;

export class RouterDesk {
  /** Sent to the router, not shown yet, in arrival order. */
  private readonly queued: Trigger[] = [];
  /** Shown to the router and not decided. */
  private readonly shown = new Map<string, Trigger>();
  /** Held by the router: shown again with the next batch, or on their own once `holdMs` has passed. */
  private readonly held = new Map<string, { trigger: Trigger; timer: NodeJS.Timeout }>();
  private wake: (() => void) | undefined;

  /** `holdMs`: how long a held trigger waits for company before it is shown again alone (the rules' holdMs). */
  constructor(
    private readonly handle: DecisionHandler,
    private readonly holdMs = 5 * 60_000,
  ) {}

  enqueue(trigger: Trigger): void {
    this.queued.push(trigger);
    this.wake?.();
  }

  /** Shown to the router and not decided yet (a router whose context was compacted reads their ids again). */
  shownUndecided(): string[] {
    return [...this.shown.keys()];
  }

  /** A new router takes over: what the last one was shown and did not decide is handed over again. */
  reshow(): void {
    this.queued.unshift(...this.shown.values());
    this.shown.clear();
  }

  /**
   * Waits until at least one trigger is queued, then hands over all queued ones at once (and the held ones again);
   * resolves with none when `signal` aborts.
   */
  async nextBatch(signal: AbortSignal | undefined): Promise<Trigger[]> {
    while (this.queued.length === 0 && signal?.aborted !== true) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.wake = undefined;
          signal?.removeEventListener("abort", done);
          resolve();
        };
        this.wake = done;
        signal?.addEventListener("abort", done, { once: true });
      });
    }
    if (this.queued.length === 0) return [];
    const held = [...this.held.values()];
    this.held.clear();
    for (const h of held) clearTimeout(h.timer);
    const batch = [...this.queued.splice(0), ...held.map((h) => h.trigger)];
    for (const t of batch) this.shown.set(t.id, t);
    return batch;
  }

  /** Holds a trigger until the next batch; when no trigger comes for `holdMs`, it comes back on its own. */
  private hold(trigger: Trigger): void {
    const timer = setTimeout(() => {
      if (!this.held.delete(trigger.id)) return;
      this.enqueue(trigger);
    }, this.holdMs);
    // A held trigger is in the trigger log: it must not keep a stopping process alive.
    timer.unref();
    this.held.set(trigger.id, { trigger, timer });
  }

  /** The router decided `triggerId`; refused (thrown, the router reads why) for a trigger it was not shown. */
  async decide(triggerId: string, decision: RouterDecision, by: string): Promise<string> {
    const trigger = this.shown.get(triggerId);
    if (trigger === undefined) {
      const open = [...this.shown.keys()].join(", ") || "none: call wait_for_triggers";
      throw new Error(`unknown-trigger: ${triggerId} is not among the triggers waiting for you (${open}).`);
    }
    this.shown.delete(triggerId);
    try {
      const said = await this.handle(trigger, decision, by);
      if (decision.action === "hold") this.hold(trigger);
      return said;
    } catch (error) {
      // Refused (e.g. a forward to an agent that is not running): it waits for another decision.
      this.shown.set(triggerId, trigger);
      throw error;
    }
  }
}
