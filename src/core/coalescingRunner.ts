// Runs a job after a burst of pokes has gone quiet: each poke restarts a `debounceMs` wait, one run at a time, and
// pokes during a run ask for exactly one more run after it (never a queue of them). Saves come in bursts (save all,
// format on save); a test run per save would run the suite many times over for one change.

export class CoalescingRunner {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(
    private readonly debounceMs: number,
    private readonly job: () => Promise<void>,
    private readonly failed: (error: Error) => void,
  ) {}

  /** Something happened: the job runs `debounceMs` after the last poke (or after the run in progress). */
  poke(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.start(), this.debounceMs);
  }

  /** No more runs; resolves when the one in progress (if any) has ended. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private start(): void {
    if (this.closed) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    this.running = this.job()
      .catch((error: unknown) => this.failed(error as Error))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.start();
        }
      });
  }
}
