// Lockstep for generating agents. node-llama-cpp merges the decodes that are queued in the same event-loop turn
// into one `llama_decode`, but each agent gets its sampled token back at a slightly different moment; an agent
// that queues its next token early would be dispatched alone. So every generating agent waits here until all
// generating agents have their token, and then they all queue together: one dispatch per step.

export class StepBarrier {
  private participants = 0;
  private waiting: Array<() => void> = [];
  private checkScheduled = false;

  /** Agents currently generating. */
  get size(): number {
    return this.participants;
  }

  join(): void {
    this.participants++;
  }

  /** An agent stops generating: the others no longer wait for it. */
  leave(): void {
    this.participants--;
    this.releaseIfAllArrived();
  }

  /** Resolves when every generating agent has arrived for this step. */
  arrive(): Promise<void> {
    const arrived = new Promise<void>((resolve) => this.waiting.push(resolve));
    this.releaseIfAllArrived();
    return arrived;
  }

  private releaseIfAllArrived(): void {
    if (this.checkScheduled || !this.allArrived()) return;
    // Agents started in the same turn join a few microtasks apart: look again on the next turn, so the first
    // step waits for all of them instead of letting the first one decode alone.
    this.checkScheduled = true;
    setImmediate(() => {
      this.checkScheduled = false;
      if (!this.allArrived()) return;
      const released = this.waiting;
      this.waiting = [];
      for (const resolve of released) resolve();
    });
  }

  private allArrived(): boolean {
    return this.waiting.length > 0 && this.waiting.length >= this.participants;
  }
}
