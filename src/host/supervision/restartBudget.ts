// How often the host may restart a crashed worker: at most `limit` restarts in any `windowMs`. Past that the
// worker stays stopped until the user asks (a crash loop would otherwise eat the machine). Pure; no vscode.
export class RestartBudget {
  private restarts: number[] = [];

  constructor(
    readonly limit = 4,
    readonly windowMs = 3 * 60_000,
  ) {}

  /** Records a restart at `now` and says whether it is allowed. */
  take(now: number): boolean {
    this.restarts = this.restarts.filter((t) => now - t < this.windowMs);
    if (this.restarts.length >= this.limit) return false;
    this.restarts.push(now);
    return true;
  }

  /** Restarts counted in the window ending at `now`. */
  used(now: number): number {
    return this.restarts.filter((t) => now - t < this.windowMs).length;
  }

  /** The user restarted by hand: the count starts again. */
  reset(): void {
    this.restarts = [];
  }
}
