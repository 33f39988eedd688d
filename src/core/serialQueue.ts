// Work that must not overlap, queued rather than refused: each piece starts once the one before it has settled,
// and a failure is its caller's alone (the next piece still runs).
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.tail.then(work);
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Resolves once everything queued so far has settled. */
  async settled(): Promise<void> {
    await this.tail;
  }
}
