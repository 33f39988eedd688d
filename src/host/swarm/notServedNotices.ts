// Tells the person when a watching swarm is no longer served: it still runs, but its router ended (its budget
// spent, a crash) and no new router took the seat, so every trigger waits in its log. Said once per router, after
// a short wait: a router that ends having decided something is forked again at once and needs no warning.
import * as vscode from "vscode";
import { DisposableBase } from "../../core/disposable";
import { notServed, notServedText } from "../../core/standingService";
import { commandId } from "../commandTable";
import type { HostLog } from "../hostLog";
import type { Notices } from "../notices";
import type { SwarmStore } from "./swarmStore";

const stopAction = "Stop Watching";
const laneAction = "Show Router's Lane";
/** How long a router may stay ended before the person is told (its successor is forked well within it). */
const settleMs = 2_000;

export class NotServedNotices extends DisposableBase {
  private readonly told = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly swarms: SwarmStore,
    private readonly notices: Notices,
    private readonly log: HostLog,
  ) {
    super();
    this.register(swarms.onDidChange(({ swarmId }) => this.check(swarmId)));
    this.register({ dispose: () => this.timers.forEach((t) => clearTimeout(t)) });
  }

  private check(swarmId: string): void {
    const view = this.swarms.swarm(swarmId);
    const why = view ? notServed(view) : undefined;
    if (why === undefined || this.timers.has(swarmId) || this.told.has(`${swarmId}:${why.router}`)) return;
    this.timers.set(
      swarmId,
      setTimeout(() => {
        this.timers.delete(swarmId);
        void this.tell(swarmId, why.router);
      }, settleMs),
    );
  }

  private async tell(swarmId: string, router: string): Promise<void> {
    const view = this.swarms.swarm(swarmId);
    const why = view ? notServed(view) : undefined;
    // Served again (a fresh router) or a different router ended since: that one gets its own look.
    if (view === undefined || why === undefined || why.router !== router) return this.check(swarmId);
    this.told.add(`${swarmId}:${router}`);
    const text = notServedText(view, why);
    this.log.warn(text);
    const action = await this.notices.show("warning", text, [stopAction, laneAction]);
    if (action === stopAction) void vscode.commands.executeCommand(commandId("stopWatching"));
    else if (action === laneAction)
      void vscode.commands.executeCommand(commandId("showLane"), { swarmId, agentId: router });
  }
}
