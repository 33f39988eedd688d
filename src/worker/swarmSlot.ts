// One swarm per worker. A launch is refused while a swarm runs or is being set up; a swarm that has announced its
// end (its swarm-ended event went out, so the person was told it is over) is only closing its context and
// worktrees, and a launch waits for that instead of refusing. Closing can take seconds on a slow machine (the
// trunk kept or saved, the memories harvested), which is longer than it takes a person, or a test, to launch again.
import { HandlerError } from "../core/rpc/rpcPeer";

interface Held<S> {
  readonly swarm: S;
  announcedEnd: boolean;
  /** Settles once the swarm has closed; never rejects. */
  readonly closed: Promise<unknown>;
}

export class SwarmSlot<S> {
  private readonly held = new Map<string, Held<S>>();
  private starting = false;

  get(swarmId: string): S | undefined {
    return this.held.get(swarmId)?.swarm;
  }

  has(swarmId: string): boolean {
    return this.held.has(swarmId);
  }

  all(): S[] {
    return [...this.held.values()].map((h) => h.swarm);
  }

  /** Runs `begin` (a start or resume, which ends in `hold`) once no other swarm runs or is being set up. */
  async claim<T>(begin: () => Promise<T>): Promise<T> {
    const others = [...this.held.values()];
    if (this.starting || others.some((h) => !h.announcedEnd))
      throw new HandlerError(
        "swarm-running",
        "A swarm is already running in this worker; stop it before launching another.",
      );
    this.starting = true;
    try {
      await Promise.all(others.map((h) => h.closed));
      return await begin();
    } finally {
      this.starting = false;
    }
  }

  /** The swarm now runs; `closed` settles when it has closed, and frees the slot. */
  hold(swarmId: string, swarm: S, closed: Promise<unknown>): void {
    const settled = closed.then(
      () => undefined,
      () => undefined,
    );
    this.held.set(swarmId, { swarm, announcedEnd: false, closed: settled });
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
