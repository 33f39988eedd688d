// The "Swarms" sidebar tree: the worker, the model and its mode, then swarms -> agents -> that agent's
// findings. A projection of the worker's state and the swarm store; it keeps no truth of its own and
// rebuilds its nodes from the store on every read.
import * as vscode from "vscode";
import type { AgentView, SwarmViewState } from "../core/swarmView";
import type { BoardEntry } from "../protocol/board";
import type { WorkerStatus } from "../protocol/webviewMessages";
import { modeLabel, modelName } from "./panel/panelProjection";
import type { SwarmStore } from "./swarm/swarmStore";
import type { WorkerProcess } from "./workerProcess";

export type SwarmsNodeKind = "worker" | "model" | "hint" | "swarm" | "agent" | "finding";

export interface SwarmsNode {
  readonly id: string;
  readonly kind?: SwarmsNodeKind;
  readonly label: string;
  readonly description?: string;
  readonly tooltip?: string;
  readonly icon: string;
  readonly command?: vscode.Command;
  readonly contextValue?: string;
  readonly swarmId?: string;
  readonly agentId?: string;
  /** An agent's branch (the review's "open branch diff" takes the node itself). */
  readonly branch?: string;
  readonly collapsible?: boolean;
}

const agentIcons: Record<string, string> = {
  starting: "loading~spin",
  gather: "search",
  claim: "pin",
  act: "edit",
  verify: "beaker",
  merge: "git-merge",
  paused: "debug-pause",
  stalled: "warning",
  done: "pass",
  failed: "error",
};
const swarmIcons: Record<SwarmViewState["status"], string> = {
  starting: "loading~spin",
  running: "sync~spin",
  completed: "pass-filled",
  budget: "watch",
  stopped: "debug-stop",
  failed: "error",
};
const findingKinds = new Set(["OBSERVED", "FACT", "FAIL", "PATCH_SUMMARY"]);
const findingIcons: Record<string, string> = {
  OBSERVED: "eye",
  FACT: "lightbulb",
  FAIL: "error",
  PATCH_SUMMARY: "git-commit",
};

export class SwarmsTreeProvider implements vscode.TreeDataProvider<SwarmsNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<SwarmsNode | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly subscriptions: vscode.Disposable[];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly worker: WorkerProcess,
    private readonly store: SwarmStore,
    private readonly isStuck: (swarmId: string) => boolean = () => false,
  ) {
    this.subscriptions = [worker.onDidChangeState(() => this.refresh()), store.onDidChange(() => this.refresh())];
  }

  /** Coalesces refreshes: the tree redraws at most every 250 ms however fast events come. */
  refresh(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.changeEmitter.fire(undefined);
    }, 250);
  }

  getChildren(element?: SwarmsNode): SwarmsNode[] {
    if (!element) return this.roots();
    const swarm = element.swarmId ? this.store.swarm(element.swarmId) : undefined;
    if (!swarm) return [];
    if (element.kind === "swarm") return swarm.agents.map((a) => agentNode(swarm, a));
    if (element.kind === "agent")
      return swarm.entries
        .filter((e) => e.author === element.agentId && findingKinds.has(e.kind))
        .map((e) => findingNode(swarm, e));
    return [];
  }

  private roots(): SwarmsNode[] {
    const swarms = this.store.swarms();
    const roots = [workerNode(this.worker.state)];
    if (!swarms.some((s) => s.status === "running" || s.status === "starting")) roots.push(launchHintNode());
    const withModel = swarms.find((s) => s.model);
    if (withModel) roots.push(modelNode(withModel));
    roots.push(...swarms.map((s) => swarmNode(s, this.isStuck(s.id))));
    return roots;
  }

  getTreeItem(node: SwarmsNode): vscode.TreeItem {
    const state = node.collapsible
      ? node.kind === "swarm"
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.Collapsed
      : vscode.TreeItemCollapsibleState.None;
    const item = new vscode.TreeItem(node.label, state);
    item.id = node.id;
    item.description = node.description;
    item.tooltip = node.tooltip;
    item.iconPath = new vscode.ThemeIcon(node.icon);
    item.command = node.command;
    item.contextValue = node.contextValue;
    return item;
  }

  getParent(node: SwarmsNode): SwarmsNode | undefined {
    const swarm = node.swarmId ? this.store.swarm(node.swarmId) : undefined;
    if (!swarm) return undefined;
    if (node.kind === "agent") return swarmNode(swarm, this.isStuck(swarm.id));
    if (node.kind === "finding") {
      const agent = swarm.agents.find((a) => a.id === node.agentId);
      return agent ? agentNode(swarm, agent) : undefined;
    }
    return undefined;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subscriptions) s.dispose();
    this.changeEmitter.dispose();
  }
}

function elapsed(view: SwarmViewState): string {
  const s = Math.max(0, Math.round(((view.endedAt ?? Date.now()) - view.startedAt) / 1000));
  return s >= 60 ? `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

export function swarmNode(view: SwarmViewState, stuck: boolean): SwarmsNode {
  const status = stuck ? "stuck? no progress" : view.status;
  return {
    id: `swarm:${view.id}`,
    kind: "swarm",
    label: view.goal || view.id,
    description: `${view.recipe} · ${status} · ${elapsed(view)} · ${view.agents.length} agents`,
    tooltip:
      `${view.id}\n${view.goal}\n${view.rules?.length ? `rules: ${view.rules.map((r) => r.path).join(", ")}\n` : ""}${view.endReason ?? ""}`.trim(),
    icon: stuck ? "warning" : swarmIcons[view.status],
    contextValue: view.status === "running" || view.status === "starting" ? "swarm-running" : "swarm",
    swarmId: view.id,
    collapsible: true,
  };
}

export function agentNode(view: SwarmViewState, agent: AgentView): SwarmsNode {
  const cells = view.stats?.agents.find((a) => a.agentId === agent.id)?.privateCells ?? 0;
  // Short, most telling first: the sidebar is narrow and cuts the description's end.
  const parts = [`${agent.tokens} tok`, `${cells} cells`, agent.claim ? `claim: ${agent.claim}` : ""].filter(
    (p) => p !== "",
  );
  const live = agent.state !== "done" && agent.state !== "failed" && view.status === "running";
  return {
    id: `agent:${view.id}:${agent.id}`,
    kind: "agent",
    label: `${agent.id} (${agent.role})`,
    description: `${agent.state} · ${parts.join(" · ")}`,
    tooltip: `${agent.id}: ${agent.state}${agent.reason ? ` (${agent.reason})` : ""}\n${agent.tokens} tokens, ${cells} private KV cells${agent.claim ? `\nclaim: ${agent.claim}` : ""}${agent.branch ? `\nbranch ${agent.branch}` : ""}`,
    icon: agentIcons[agent.state] ?? "circle-outline",
    contextValue: `agent${live ? "-live" : ""}${agent.branch ? "-branch" : ""}`,
    swarmId: view.id,
    agentId: agent.id,
    ...(agent.branch ? { branch: agent.branch } : {}),
    command: {
      command: "swarmboard.showLane",
      title: "Show Lane",
      arguments: [{ swarmId: view.id, agentId: agent.id }],
    },
    collapsible: view.entries.some((e) => e.author === agent.id && findingKinds.has(e.kind)),
  };
}

export function findingNode(view: SwarmViewState, entry: BoardEntry): SwarmsNode {
  const ref = entry.refs[0];
  const where = ref ? `${ref.path}${ref.line ? `:${ref.line}` : ""}` : "";
  return {
    id: `finding:${view.id}:${entry.id}`,
    kind: "finding",
    label: entry.text.length > 120 ? `${entry.text.slice(0, 119)}…` : entry.text,
    description: [entry.kind, where].filter((p) => p !== "").join(" · "),
    tooltip: `${entry.kind} by ${entry.author}\n${entry.text}`,
    icon: findingIcons[entry.kind] ?? "note",
    swarmId: view.id,
    agentId: entry.author,
    ...(ref
      ? {
          command: {
            command: "swarmboard.openFindingRef",
            title: "Open",
            arguments: [{ swarmId: view.id, path: ref.path, line: ref.line ?? 1 }],
          },
        }
      : {}),
  };
}

export function modelNode(view: SwarmViewState): SwarmsNode {
  const name = view.model ? modelName(view.model.path) : "no model";
  return {
    id: "model",
    kind: "model",
    label: `Model: ${name}`,
    description: modeLabel(view.mode),
    tooltip: view.model
      ? `${view.model.path}\n${view.model.architecture}, ${view.model.layers} layers, ${view.model.kvBytesPerCell} bytes per KV cell`
      : undefined,
    icon: "chip",
  };
}

/** The worker line, e.g. "Worker: ready (pid 4242)". */
export function workerNode(status: WorkerStatus): SwarmsNode {
  const check: vscode.Command = { command: "swarmboard.pingWorker", title: "Check Worker" };
  switch (status.state) {
    case "starting":
      return { id: "worker", kind: "worker", label: "Worker: starting…", icon: "loading~spin", command: check };
    case "ready":
      return {
        id: "worker",
        kind: "worker",
        label: `Worker: ready (pid ${status.pid})`,
        description: `v${status.version}`,
        tooltip: "The worker process that will hold the model. Click to check it answers.",
        icon: "pass",
        command: check,
      };
    case "exited":
      return {
        id: "worker",
        kind: "worker",
        label: "Worker: stopped",
        description: status.reason,
        tooltip: "Click to start it again (see the Swarmboard output for why it stopped).",
        icon: "error",
        contextValue: "worker-stopped",
        command: { command: "swarmboard.restartWorker", title: "Restart Worker" },
      };
  }
}

function launchHintNode(): SwarmsNode {
  return {
    id: "launch-hint",
    kind: "hint",
    label: "No swarm running",
    description: "Launch Swarm to start one",
    icon: "rocket",
    command: { command: "swarmboard.launchSwarm", title: "Launch Swarm" },
  };
}
