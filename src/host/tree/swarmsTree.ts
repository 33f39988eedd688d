// The "Swarms" sidebar tree: the worker, the model and its mode, then swarms -> agents -> that agent's
// findings. A projection of the worker's state and the swarm store; it keeps no truth of its own and
// rebuilds its nodes from the store on every read.
import * as vscode from "vscode";
import { DisposableBase } from "../../core/disposable";
import type { RepositoryMemories } from "../memory/repositoryMemories";
import type { SwarmStore } from "../swarm/swarmStore";
import type { WorkerProcess } from "../workerProcess";
import { readSettings } from "../configuration";
import {
  agentNode,
  configuredModelNode,
  findingKinds,
  findingNode,
  launchHintNode,
  modelNode,
  swarmNode,
  workerNode,
  type SwarmsNode,
} from "./swarmsNodes";
import { memoriesNode, memoryNode } from "./memoryNodes";
import { triggerNodes, triggerQueueNode } from "./triggerNodes";

export type { SwarmsNode } from "./swarmsNodes";

export class SwarmsTreeProvider extends DisposableBase implements vscode.TreeDataProvider<SwarmsNode> {
  private readonly changeEmitter = this.register(new vscode.EventEmitter<SwarmsNode | undefined>());
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly worker: WorkerProcess,
    private readonly swarms: SwarmStore,
    private readonly isStuck: (swarmId: string) => boolean = () => false,
    private readonly memories?: RepositoryMemories,
  ) {
    super();
    if (memories) this.register(memories.onDidChange(() => this.refresh()));
    this.register(worker.onDidChangeState(() => this.refresh()));
    this.register(swarms.onDidChange(() => this.refresh()));
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("swarmboard.modelPath")) this.refresh();
      }),
    );
    this.register({ dispose: () => clearTimeout(this.timer) });
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
    if (element.kind === "memories") {
      // Opening the node reads the memory again (a CLI or another window may have changed it).
      void this.memories?.refresh();
      return (this.memories?.memories() ?? []).map(memoryNode);
    }
    const swarm = element.swarmId ? this.swarms.swarm(element.swarmId) : undefined;
    if (!swarm) return [];
    if (element.kind === "swarm") {
      const queue = triggerQueueNode(swarm);
      return [...(queue ? [queue] : []), ...swarm.agents.map((a) => agentNode(swarm, a))];
    }
    if (element.kind === "triggers") return triggerNodes(swarm);
    if (element.kind === "agent")
      return swarm.entries
        .filter((e) => e.author === element.agentId && findingKinds.has(e.kind))
        .map((e) => findingNode(swarm, e));
    return [];
  }

  private roots(): SwarmsNode[] {
    const swarms = this.swarms.swarms();
    const roots = [workerNode(this.worker.state)];
    if (!swarms.some((s) => s.status === "running" || s.status === "starting")) roots.push(launchHintNode());
    // A past swarm's model is not loaded now: only a swarm of this worker says which model is.
    const withModel = swarms.find((s) => s.model && s.past === undefined);
    const settings = readSettings();
    if (withModel) roots.push(modelNode(withModel));
    else roots.push(configuredModelNode(settings.ok ? settings.settings.modelPath : ""));
    roots.push(...swarms.map((s) => swarmNode(s, this.isStuck(s.id))));
    if (this.memories) roots.push(memoriesNode(this.memories.memories()));
    return roots;
  }

  getTreeItem(node: SwarmsNode): vscode.TreeItem {
    const state = node.collapsible
      ? node.kind === "swarm" && node.folded !== true
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
    const swarm = node.swarmId ? this.swarms.swarm(node.swarmId) : undefined;
    if (!swarm) return undefined;
    if (node.kind === "agent" || node.kind === "triggers") return swarmNode(swarm, this.isStuck(swarm.id));
    if (node.kind === "trigger") return triggerQueueNode(swarm);
    if (node.kind === "finding") {
      const agent = swarm.agents.find((a) => a.id === node.agentId);
      return agent ? agentNode(swarm, agent) : undefined;
    }
    return undefined;
  }
}
