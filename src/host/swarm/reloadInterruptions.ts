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
/** How often a running swarm's "still running at" time is written: a reload's duration is this close to the truth. */
const heartbeatMs = 3_000;
const resumeAction = "Resume";
const reviewAction = "Review Branches";

/** A swarm not read back within this long (its repository is no longer open here) is owed no word any more. */
const forgetAfterMs = 7 * 24 * 3600_000;

function readSaved(saved: unknown, now: number): Map<string, number> {
  if (typeof saved !== "object" || saved === null || Array.isArray(saved)) return new Map();
  const entries = Object.entries(saved).filter((e): e is [string, number] => typeof e[1] === "number");
  return new Map(entries.filter(([, at]) => now - at < forgetAfterMs));
}

export class ReloadInterruptions extends DisposableBase {
  /** Swarms the last window was running, not yet read back from the history, each with when it last ran. */
  private readonly before: Map<string, number>;
  /** What the window's record says was running, and when. */
  private readonly seenAt: ReadonlyMap<string, number>;
  private keptIds = "";

  constructor(
    private readonly swarms: SwarmStore,
    private readonly state: vscode.Memento,
    private readonly notices: Notices,
    private readonly log: HostLog,
  ) {
    super();
    this.before = readSaved(state.get<unknown>(runningKey), Date.now());
    this.seenAt = new Map(this.before);
    this.keptIds = [...this.before.keys()].sort().join("\n");
    if (this.before.size > 0)
      log.info(`reload: the last window was running ${[...this.before.keys()].join(", ")}; told once read back`);
    this.register(swarms.onDidChange(() => this.check()));
    const beat = setInterval(() => this.keep(true), heartbeatMs);
    this.register({ dispose: () => clearInterval(beat) });
  }

  /** When the last window last saw this swarm running (its worker went with the window soon after). */
  lastSeenRunning(swarmId: string): number | undefined {
    return this.seenAt.get(swarmId);
  }

  private check(): void {
    for (const id of [...this.before.keys()]) {
      const view = this.swarms.swarm(id);
      if (view === undefined) continue;
      this.before.delete(id);
      // Read back as interrupted: its worker went with the window. Anything else (run here again, still running
      // elsewhere, ended before the window did) needs no word.
      if (view.past?.outcome === "interrupted") void this.tell(view);
    }
    this.keep();
  }

  /** Writes the swarms still owed a word and those running now: when that set changed, and at each heartbeat. */
  private keep(beat = false): void {
    const now = Date.now();
    const running = this.swarms.swarms().filter((s) => s.past === undefined && isRunning(s));
    const record = new Map([...this.before, ...running.map((s) => [s.id, now] as const)]);
    const ids = [...record.keys()].sort().join("\n");
    if (ids === this.keptIds && !(beat && running.length > 0)) return;
    this.keptIds = ids;
    void this.state.update(runningKey, Object.fromEntries(record));
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
