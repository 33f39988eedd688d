// Forks of one parent asked for together are made together. A stage's seats start at once, and each fork's copy in
// llama.cpp waits for the context between two decode steps; made one after another, every fork waited for a step of
// the swarms already generating on the pool (a second swarm's 8 researchers: 8 steps, ~430 ms of its start under
// load). A batch admits its forks one after another (each sees the room the ones before it took), then queues all
// their copies at once, so they land in the same gap. Forks asked for while a batch runs form the next batch.
import type { SerialQueue } from "../../core/serialQueue";
import type { AgentRole, EngineAgent } from "../port/engine";
import { checkSeat } from "../seatCheck";
import { admitFork, completeFork } from "./forkSequence";
import type { SwarmSequence } from "./swarmSequence";

type Seated = Pick<EngineAgent, "id" | "role">;

/** One fork of a batch: its id (without the tenant's prefix), its role and the tail it is expected to grow. */
export interface BatchFork {
  readonly id: string;
  readonly role: AgentRole;
  readonly tail: number;
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/**
 * Forks `parent` (busy-locked by the caller) for each of `forks`: seated and admitted in order, then copied all at
 * once. A fork refused (no seat, no room) or failed is an Error in its place; the others are made.
 */
export async function forkMany(
  parent: SwarmSequence,
  forks: readonly BatchFork[],
  seats: { readonly trunkId: string; readonly maxAgents: number; readonly live: readonly Seated[] },
  own: { readonly prefix: string; open(id: string): SwarmSequence },
): Promise<Array<{ slot: SwarmSequence; role: AgentRole } | Error>> {
  const live = [...seats.live];
  const admitted = forks.map(({ id, role, tail }) => {
    try {
      checkSeat({ id, role, trunkId: seats.trunkId, maxAgents: seats.maxAgents, live });
      const slot = admitFork(parent, own.prefix + id, (key) => own.open(key), tail);
      live.push({ id, role });
      return { slot, role };
    } catch (error) {
      return asError(error);
    }
  });
  return Promise.all(
    admitted.map((a) => (a instanceof Error ? a : completeFork(parent, a.slot).then(() => a, asError))),
  );
}

interface Asked<I, T> {
  readonly input: I;
  readonly resolve: (made: T) => void;
  readonly reject: (error: unknown) => void;
}

export class ForkBatches<I, T> {
  private gathering: Asked<I, T>[] | undefined;

  /** `forkAll` makes a batch: one result or error per input, in order. Batches run on `queue`, one at a time. */
  constructor(
    private readonly queue: SerialQueue,
    private readonly forkAll: (inputs: readonly I[]) => Promise<ReadonlyArray<T | Error>>,
  ) {}

  fork(input: I): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.gathering === undefined) this.gathering = this.startBatch();
      this.gathering.push({ input, resolve, reject });
    });
  }

  /** A new batch, made when the queue reaches it (a turn later at the soonest); until then it takes every fork asked for. */
  private startBatch(): Asked<I, T>[] {
    const batch: Asked<I, T>[] = [];
    void this.queue.run(async () => {
      // A stage's seats ask a few microtasks apart (each after its own awaits): a turn later they all have.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.gathering === batch) this.gathering = undefined;
      let made: ReadonlyArray<T | Error>;
      try {
        made = await this.forkAll(batch.map((asked) => asked.input));
      } catch (error) {
        for (const asked of batch) asked.reject(error);
        return;
      }
      batch.forEach((asked, i) => {
        const result = made[i];
        if (result instanceof Error) asked.reject(result);
        else asked.resolve(result as T);
      });
    });
    return batch;
  }
}
