// Agents paused by a full KV pool wait here until another agent is released (its private cells are then
// free). A paused agent that is the only one left would wait forever, so it is told no cells will come.
export class CellWaiters {
  private waiting: Array<() => void> = [];

  /** Resolves true at the next release, or false at once when `othersAlive()` says nobody can free cells. */
  wait(othersAlive: () => boolean): Promise<boolean> {
    if (!othersAlive()) return Promise.resolve(false);
    return new Promise((resolve) => this.waiting.push(() => resolve(true)));
  }

  /** Called after an agent was released. */
  freed(): void {
    const woken = this.waiting;
    this.waiting = [];
    for (const wake of woken) wake();
  }
}
