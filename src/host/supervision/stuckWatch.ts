// Reports a stuck worker: a swarm that is running with live agents but has sent no event for `quietMs`.
// A stuck worker cannot say so itself, so the host watches the store's change stream. One report per quiet
// spell; the next event clears it.
import * as vscode from "vscode";
import type { SwarmViewState } from "../../core/swarmView";
import type { SwarmStore } from "../swarm/swarmStore";

const finished = new Set(["done", "failed"]);

/** Agents of a running swarm that have not ended. */
export function liveAgents(view: SwarmViewState): number {
  if (view.status !== "running" && view.status !== "starting") return 0;
  return view.agents.filter((a) => !finished.has(a.state)).length;
}

export interface StuckReport {
  readonly swarmId: string;
  readonly quietMs: number;
  readonly liveAgents: number;
}

export class StuckWatch implements vscode.Disposable {
  private readonly lastEvent = new Map<string, number>();
  private readonly reported = new Set<string>();
  private readonly emitter = new vscode.EventEmitter<StuckReport>();
  readonly onDidReport = this.emitter.event;
  private readonly timer: NodeJS.Timeout;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly store: SwarmStore,
    readonly quietMs = 60_000,
    checkEveryMs = 5_000,
  ) {
    this.subscription = store.onDidChange(({ swarmId }) => {
      this.lastEvent.set(swarmId, Date.now());
      this.reported.delete(swarmId);
    });
    this.timer = setInterval(() => this.check(Date.now()), checkEveryMs);
  }

  /** Whether a swarm is reported stuck now. */
  isStuck(swarmId: string): boolean {
    return this.reported.has(swarmId);
  }

  check(now: number): void {
    for (const view of this.store.swarms()) {
      const live = liveAgents(view);
      const last = this.lastEvent.get(view.id) ?? view.startedAt;
      // An agent waiting for the user's approval is not progress the worker owes.
      if (live === 0 || view.approvals.length > 0 || this.reported.has(view.id) || now - last < this.quietMs) continue;
      this.reported.add(view.id);
      this.emitter.fire({ swarmId: view.id, quietMs: now - last, liveAgents: live });
    }
  }

  dispose(): void {
    clearInterval(this.timer);
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
