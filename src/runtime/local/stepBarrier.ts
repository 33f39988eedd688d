// Lockstep for everything that decodes while agents generate. node-llama-cpp merges the decodes that are queued in
// the same event-loop turn into one `llama_decode`, but each agent gets its sampled token back at a slightly
// different moment; an agent that queues its next token early would be dispatched alone. So every participant
// waits here until all have arrived, and then they all queue together: one dispatch per step.
//
// Each arrival says how many rows it wants (an agent's next token: one; a trunk or a long prompt: thousands) and is
// granted its share of the step's batch: the small wants in full, the rest of the batch split evenly among the large
// ones (see grantRows). A long decode thus goes in chunks that ride in the running agents' steps instead of filling
// dispatches of its own, and no participant, of any swarm on the pool, is left out of a step.

interface Arrival {
  readonly wanted: number;
  readonly resolve: (granted: number) => void;
}

export class StepBarrier {
  private participants = 0;
  private waiting: Arrival[] = [];
  private checkScheduled = false;

  /** `batchSize`: the most rows one `llama_decode` takes (the context's batch size). */
  constructor(readonly batchSize: number) {}

  /** Participants: agents generating, and long decodes (a trunk, an append) going in chunks. */
  get size(): number {
    return this.participants;
  }

  join(): void {
    this.participants++;
  }

  /** A participant is done: the others no longer wait for it. */
  leave(): void {
    this.participants--;
    this.releaseIfAllArrived();
  }

  /**
   * Resolves when every participant has arrived for this step, with the rows (at least one, at most `wanted`)
   * this one may put into the step's dispatch.
   */
  arrive(wanted = 1): Promise<number> {
    const arrived = new Promise<number>((resolve) => this.waiting.push({ wanted: Math.max(1, wanted), resolve }));
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
      const grants = grantRows(
        released.map((arrival) => arrival.wanted),
        this.batchSize,
      );
      released.forEach((arrival, i) => arrival.resolve(grants[i]!));
    });
  }

  private allArrived(): boolean {
    return this.waiting.length > 0 && this.waiting.length >= this.participants;
  }
}

/**
 * Shares `batch` rows among `wanted` (in order): the smallest wants are met first, each gets at most an even split
 * of what is left, and everyone gets at least one row (a step is never refused). So agents stepping one token each
 * always go in, and what they leave of the batch is split among the long decodes.
 */
export function grantRows(wanted: readonly number[], batch: number): number[] {
  const grants = new Array<number>(wanted.length).fill(0);
  const order = wanted.map((_, i) => i).sort((a, b) => wanted[a]! - wanted[b]!);
  let left = batch;
  order.forEach((index, position) => {
    const share = Math.floor(left / (order.length - position));
    grants[index] = Math.max(1, Math.min(wanted[index]!, share));
    left = Math.max(0, left - grants[index]!);
  });
  return grants;
}
