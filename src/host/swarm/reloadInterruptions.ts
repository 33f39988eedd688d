// Says so when a reload or a closed window ended a swarm this window was running: the worker is the window's
// child and goes with it, so the swarm stops mid-run and, without a word, only the tree's Resume brings it back.
// The ids of the swarms running here are kept in the workspace's state; the next window, once the history lists
// one of them as interrupted, tells the person once, with how long it ran and Resume.
import * as vscode from "vscode";
import { shortDuration } from "../../core/budgetLeft";
import { DisposableBase } from "../../core/disposable";
import { commandId } from "../commandTable";
import type { HostLog } from "../hostLog";
import type { Notices } from "../notices";
import { isRunning, type HostSwarmView } from "./swarmStatus";
import type { SwarmStore } from "./swarmStore";

const runningKey = "swarmboard.swarmsRunningInWindow";
const resumeAction = "Resume";
const reviewAction = "Review Branches";

export class ReloadInterruptions extends DisposableBase {
  /** Swarms the last window was running, not yet read back from the history. */
  private readonly before: Set<string>;
  private kept = "";

  constructor(
    private readonly swarms: SwarmStore,
    private readonly state: vscode.Memento,
    private readonly notices: Notices,
    private readonly log: HostLog,
  ) {
    super();
    const saved = state.get<unknown>(runningKey);
    this.before = new Set(Array.isArray(saved) ? saved.filter((id): id is string => typeof id === "string") : []);
    this.kept = [...this.before].sort().join("\n");
    this.register(swarms.onDidChange(() => this.check()));
  }

  private check(): void {
    for (const id of [...this.before]) {
      const view = this.swarms.swarm(id);
      if (view === undefined) continue;
      this.before.delete(id);
      // Read back as interrupted: its worker went with the window. Anything else (run here again, still running
      // elsewhere, ended before the window did) needs no word.
      if (view.past?.outcome === "interrupted") void this.tell(view);
    }
    this.keep();
  }

  /** Writes the ids still owed a word and those running now, only when they changed. */
  private keep(): void {
    const running = this.swarms.swarms().filter((s) => s.past === undefined && isRunning(s));
    const ids = [...new Set([...this.before, ...running.map((s) => s.id)])].sort();
    const text = ids.join("\n");
    if (text === this.kept) return;
    this.kept = text;
    void this.state.update(runningKey, ids);
  }

  private async tell(view: HostSwarmView): Promise<void> {
    const ran = shortDuration((view.endedAt ?? view.startedAt) - view.startedAt);
    const goal = view.goal.length > 60 ? `${view.goal.slice(0, 59)}…` : view.goal || view.id;
    const text =
      `Swarmboard: swarm “${goal}” was running when this window reloaded or closed, and stopped with it after ` +
      `${ran}. Its branches and findings are kept; Resume continues it.`;
    this.log.warn(text);
    const picked = await this.notices.show("warning", text, [resumeAction, reviewAction]);
    if (picked === resumeAction) void vscode.commands.executeCommand(commandId("resumeSwarm"), { swarmId: view.id });
    else if (picked === reviewAction)
      void vscode.commands.executeCommand(commandId("reviewBranches"), { swarmId: view.id });
  }
}
