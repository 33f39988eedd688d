// The status bar item: the model, live agents and KV use of the current swarm, projected from the store
// (and the worker's state when no swarm has run). Clicking it opens the panel.
import * as vscode from "vscode";
import { DisposableBase } from "../core/disposable";
import type { WorkerStatus } from "../protocol/webviewMessages";
import { commandId } from "./commandTable";
import { modeLabel, modelName } from "./panel/panelProjection";
import type { SwarmStore } from "./swarm/swarmStore";
import { liveAgents } from "./supervision/stuckWatch";
import { agentCount, isRunning, swarmStatus, type HostSwarmView } from "./swarm/swarmStatus";
import type { WorkerProcess } from "./workerProcess";

export interface StatusBarText {
  readonly text: string;
  readonly tooltip: string;
}

/** What the item says; pure so the words are the same everywhere. */
export function statusBarText(swarm: HostSwarmView | undefined, worker: WorkerStatus): StatusBarText {
  if (worker.state === "exited" && !worker.reason.includes("restarting")) {
    return {
      text: "$(error) Swarmboard: worker stopped",
      tooltip: `The worker ${worker.reason}. Click to open the panel.`,
    };
  }
  if (!swarm) return { text: "$(rocket) Swarmboard", tooltip: "No swarm yet. Click to open the panel." };
  if (swarm.status === "starting") return settingUp(swarm);
  // No model facts after the start: the swarm ended before it got there (a set-up that failed, a stop).
  const model = swarm.model ? modelName(swarm.model.path) : "not started";
  const live = liveAgents(swarm);
  const stats = swarm.stats;
  const kv = stats ? `KV ${Math.round((100 * stats.usedCells) / Math.max(1, stats.poolCells))}%` : "KV –";
  const tooltip = [
    `Swarm ${swarm.id} (${swarm.recipe}): ${swarmStatus(swarm)}`,
    `Model: ${model} (${modeLabel(swarm.mode)})`,
    `Live agents: ${live} of ${swarm.agents.length} (${agentCount(swarm)})`,
    stats
      ? `KV: ${stats.usedCells.toLocaleString("en-US")} of ${stats.poolCells.toLocaleString("en-US")} cells used`
      : "KV: no stats yet",
    "Click to open the panel.",
  ].join("\n");
  // An ended swarm's last numbers are history, not live use: the item says how it ended instead.
  const status = swarmStatus(swarm);
  const now = status === "not served" ? `not served · ${kv}` : isRunning(swarm) ? `${live} live · ${kv}` : status;
  return { text: `$(hubot) ${model} · ${now}`, tooltip };
}

/**
 * Until the worker says the swarm started, it sets it up: a launch loaded the model already (its own notification),
 * so what takes the time is the shared context, decoded once before any agent forks. A resumed swarm loads its
 * model first; the tooltip says so (the worker reports no finer phase).
 */
function settingUp(swarm: HostSwarmView): StatusBarText {
  return {
    text: "$(loading~spin) Swarmboard: decoding the shared context",
    tooltip: [
      `Swarm ${swarm.id}${swarm.recipe ? ` (${swarm.recipe})` : ""}: setting up`,
      "The worker makes the agents' worktrees and decodes the shared context once for all of them (a resumed swarm loads its model first); the agents fork from it when it is done.",
      "Click to open the panel.",
    ].join("\n"),
  };
}

export class SwarmStatusBar extends DisposableBase {
  readonly item: vscode.StatusBarItem;

  constructor(
    private readonly swarms: SwarmStore,
    private readonly worker: WorkerProcess,
  ) {
    super();
    this.item = this.register(
      vscode.window.createStatusBarItem("swarmboard.status", vscode.StatusBarAlignment.Left, 50),
    );
    this.item.name = "Swarmboard";
    this.item.command = commandId("openPanel");
    this.register(swarms.onDidChange(() => this.refresh()));
    this.register(worker.onDidChangeState(() => this.refresh()));
    this.refresh();
    this.item.show();
  }

  refresh(): void {
    const { text, tooltip } = statusBarText(this.swarms.current(), this.worker.state);
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = { label: text.replace(/\$\([a-z-~]+\)\s*/g, ""), role: "button" };
  }
}
