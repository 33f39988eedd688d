// The worker's table of swarms: many run at once (swarms on the same model and settings share one pool: the
// runtime's owner joins them, and refuses one that does not fit with what is running). Set-ups run one at a time,
// so a second launch finds the first one's pool in place: it waits for a set-up under way rather than being
// refused. A swarm that has announced its end (its swarm-ended event went out, so the person was told it is over)
// is only closing its context and worktrees, and a launch waits for that too, so it finds the context kept. Closing
// can take seconds on a slow machine (the trunk kept or saved, the memories harvested).
import { HandlerError } from "../core/rpc/rpcPeer";

/** How long a launch waits for a swarm that said it ended to close, before it is refused with what to do. */
export const defaultCloseWaitMs = 60_000;

interface Held<S> {
  readonly swarmId: string;
  readonly swarm: S;
  announcedEnd: boolean;
  /** Settles once the swarm has closed; never rejects. */
  readonly closed: Promise<unknown>;
}

export class SwarmSlot<S> {
  private readonly held = new Map<string, Held<S>>();
  /** Settles when the set-up under way (if any) is over. */
  private starting: Promise<unknown> = Promise.resolve();

  constructor(private readonly closeWaitMs = defaultCloseWaitMs) {}

  get(swarmId: string): S | undefined {
    return this.held.get(swarmId)?.swarm;
  }

  has(swarmId: string): boolean {
    return this.held.has(swarmId);
  }

  /** The ids of the swarms held (running, or closing after their end). */
  ids(): string[] {
    return [...this.held.keys()];
  }

  all(): S[] {
    return [...this.held.values()].map((h) => h.swarm);
  }

  /** Runs `begin` (a start or resume, which ends in `hold`) after the set-ups before it and the swarms closing. */
  claim<T>(begin: () => Promise<T>): Promise<T> {
    const run = this.starting.then(async () => {
      await this.closeOf([...this.held.values()].filter((h) => h.announcedEnd));
      return begin();
    });
    this.starting = run.catch(() => undefined);
    return run;
  }

  /** Waits for the swarms that said they ended to close, at most `closeWaitMs`; a close that hangs is refused. */
  private async closeOf(ending: readonly Held<S>[]): Promise<void> {
    if (ending.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), this.closeWaitMs)));
    try {
      if ((await Promise.race([Promise.all(ending.map((h) => h.closed)), late])) !== "late") return;
    } finally {
      clearTimeout(timer);
    }
    const ids = ending.filter((h) => this.held.has(h.swarmId)).map((h) => h.swarmId);
    if (ids.length === 0) return;
    throw new HandlerError(
      "swarm-closing",
      `Swarm ${ids.join(", ")} ended but is still closing (its context and worktrees) after ` +
        `${this.closeWaitMs / 1000} s; launch again in a moment, or run Swarmboard: Restart Worker if it stays.`,
    );
  }

  /** The swarm now runs; `closed` settles when it has closed, and frees the slot. */
  hold(swarmId: string, swarm: S, closed: Promise<unknown>): void {
    const settled = closed.then(
      () => undefined,
      () => undefined,
    );
    this.held.set(swarmId, { swarmId, swarm, announcedEnd: false, closed: settled });
    void settled.then(() => {
      if (this.held.get(swarmId)?.swarm === swarm) this.held.delete(swarmId);
    });
  }

  /** Its swarm-ended event went out: a launch from now on waits for its close rather than being refused. */
  announceEnd(swarmId: string): void {
    const held = this.held.get(swarmId);
    if (held !== undefined) held.announcedEnd = true;
  }
}
