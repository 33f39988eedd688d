// Agents paused by a full KV pool wait here until cells are freed: another agent ended (its private cells are
// released) or compacted (re-forked from the trunk). Cells only come back from an agent that still runs, so when
// every live agent is either waiting here or blocked on its own sub-agents, no cell will ever come: the swarm
// would hang with all its lanes paused (seen in CI: a parent and its background sub-agent, each within its share,
// filled the pool between them; sub-agents have no share of their own). Then the waiter that holds the most cells
// is told to give them back (it compacts, or ends when compacting would free nothing), and the rest go on.

import type { CellWord } from "../agent/agentRunnerDeps";

interface Waiter {
  readonly held: () => number;
  readonly resolve: (word: CellWord) => void;
}

export class CellWaiters {
  private waiting: Waiter[] = [];
  private blocked = 0;

  /** `live()`: the swarm's live agents (those holding a sequence), paused ones included. */
  constructor(private readonly live: () => number) {}

  /** Waits for freed cells; `held()` is what this agent holds, read when a waiter must be chosen to give back. */
  wait(held: () => number): Promise<CellWord> {
    const word = new Promise<CellWord>((resolve) => this.waiting.push({ held, resolve }));
    this.breakDeadlock();
    return word;
  }

  /** Counts an agent as unable to free cells while it waits for its sub-agents (a spawn that waits, collect, its end). */
  async blockedWhile<T>(work: Promise<T>): Promise<T> {
    this.blocked++;
    this.breakDeadlock();
    try {
      return await work;
    } finally {
      this.blocked--;
    }
  }

  /** Called when an agent released or compacted: every waiter tries again. */
  freed(): void {
    const woken = this.waiting;
    this.waiting = [];
    for (const waiter of woken) waiter.resolve("freed");
  }

  get waitingCount(): number {
    return this.waiting.length;
  }

  /** When nobody left can free cells, the waiter holding the most gives back (the latest on a tie). */
  private breakDeadlock(): void {
    if (this.waiting.length === 0 || this.waiting.length + this.blocked < this.live()) return;
    let chosen = 0;
    for (let i = 1; i < this.waiting.length; i++)
      if (this.waiting[i]!.held() >= this.waiting[chosen]!.held()) chosen = i;
    const [waiter] = this.waiting.splice(chosen, 1);
    waiter!.resolve("give-back");
  }
}
