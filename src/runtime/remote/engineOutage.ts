// A remote engine that went away: the agents whose requests failed wait here, together, while one poll asks the
// engine's health endpoint with backoff; when it answers they all go on from where they were. One event says the
// engine is unreachable (with the waiting agents) and one that it is back, so the lanes show a pause, not a
// failure; nothing is lost because an agent's tokens live in the worker, not in the engine.
import type { EngineStateEvent } from "../../protocol/runtime";
import { delay, type EngineHttp } from "./engineHttp";

export class EngineOutage {
  private outage: { readonly back: Promise<void>; readonly waiting: Set<string> } | undefined;
  private stopped = false;

  constructor(
    private readonly http: EngineHttp,
    private readonly emit: (event: EngineStateEvent) => void,
    /** The longest pause between two health polls. */
    private readonly maxPollMs = 5000,
  ) {}

  /** True while the engine is known to be unreachable. */
  get down(): boolean {
    return this.outage !== undefined;
  }

  /** Waits until the engine answers again (or `signal` aborts, or the context is disposed). */
  async untilBack(agentId: string, signal?: AbortSignal): Promise<void> {
    if (this.outage === undefined) {
      const waiting = new Set([agentId]);
      this.outage = { waiting, back: this.poll() };
      this.emit({
        code: "engine-state",
        state: "unreachable",
        url: this.http.url,
        waitingAgents: [...waiting],
        message:
          `The engine at ${this.http.url} stopped answering; ${agentId} and any agent that needs it wait for it ` +
          "(nothing is lost). Restart the server, or stop the swarm.",
      });
    } else this.outage.waiting.add(agentId);
    const { back } = this.outage;
    await Promise.race([back, new Promise<void>((resolve) => signal?.addEventListener("abort", () => resolve()))]);
  }

  stop(): void {
    this.stopped = true;
  }

  /** Polls until the engine answers; not tied to one agent's signal, since others may be waiting too. */
  private async poll(): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt++) {
      await delay(Math.min(250 * 2 ** attempt, this.maxPollMs));
      if (await this.answers()) break;
    }
    const waiting = [...(this.outage?.waiting ?? [])];
    this.outage = undefined;
    if (this.stopped) return;
    this.emit({
      code: "engine-state",
      state: "back",
      url: this.http.url,
      waitingAgents: waiting,
      message: `The engine at ${this.http.url} answers again; ${waiting.join(", ")} go on.`,
    });
  }

  private async answers(): Promise<boolean> {
    try {
      const reply = await fetch(`${this.http.url}/health`, { signal: AbortSignal.timeout(2000) });
      await reply.body?.cancel();
      return reply.ok;
    } catch {
      return false;
    }
  }
}
