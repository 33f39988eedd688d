// The threads of a standing swarm: each trigger the router takes opens one, keyed by its fingerprint, its path and
// its test. A thread is pending while the router has not placed it, owned once an agent has it (a worker assigned
// to it, or an agent it was forwarded to), and closed when its owner ends or the router drops or answers it.
// A later trigger with the same fingerprint, path or test is a follow-up on that thread.
import type { Trigger } from "../protocol/triggers";

export interface TriggerThread {
  /** The id of the trigger that opened it. */
  readonly id: string;
  readonly fingerprint: string;
  readonly path?: string;
  readonly test?: string;
  /** The agent that owns it; undefined while the router has not placed it. */
  owner?: string;
}

export class TriggerThreads {
  private readonly open = new Map<string, TriggerThread>();

  /** Opens a pending thread for a trigger sent to the router. */
  openPending(trigger: Trigger): TriggerThread {
    const thread: TriggerThread = {
      id: trigger.id,
      fingerprint: trigger.fingerprint,
      ...(trigger.path !== undefined ? { path: trigger.path } : {}),
      ...(trigger.test !== undefined ? { test: trigger.test } : {}),
    };
    this.open.set(trigger.id, thread);
    return thread;
  }

  get(id: string): TriggerThread | undefined {
    return this.open.get(id);
  }

  /** The thread now belongs to `agentId` (false: no such open thread). */
  own(id: string, agentId: string): boolean {
    const thread = this.open.get(id);
    if (thread === undefined) return false;
    thread.owner = agentId;
    return true;
  }

  close(id: string): void {
    this.open.delete(id);
  }

  /** Closes every thread an agent owns (it ended); returns their ids. */
  closeOwnedBy(agentId: string): string[] {
    const ids = [...this.open.values()].filter((t) => t.owner === agentId).map((t) => t.id);
    for (const id of ids) this.open.delete(id);
    return ids;
  }

  /** The open thread this trigger follows up on: an owned one first, then a pending one, the oldest first. */
  match(trigger: Pick<Trigger, "fingerprint" | "path" | "test">): TriggerThread | undefined {
    const hits = [...this.open.values()].filter(
      (t) =>
        t.fingerprint === trigger.fingerprint ||
        (trigger.path !== undefined && t.path === trigger.path) ||
        (trigger.test !== undefined && t.test === trigger.test),
    );
    return hits.find((t) => t.owner !== undefined) ?? hits[0];
  }

  /** Open threads, in the order they opened. */
  list(): readonly TriggerThread[] {
    return [...this.open.values()];
  }
}
