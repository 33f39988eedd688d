// The "Swarms" sidebar tree. For now it shows the worker's state and how to start; later it lists
// swarms -> agents -> findings. It is a projection of the worker's state and keeps no truth of its own.
import * as vscode from "vscode";
import type { WorkerStatus } from "../protocol/webviewMessages";
import type { WorkerProcess } from "./workerProcess";

export interface SwarmsNode {
  readonly id: string;
  readonly label: string;
  readonly description?: string;
  readonly tooltip?: string;
  readonly icon: string;
  readonly command?: vscode.Command;
}

export class SwarmsTreeProvider implements vscode.TreeDataProvider<SwarmsNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<SwarmsNode | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly worker: WorkerProcess) {
    this.subscription = worker.onDidChangeState(() => this.changeEmitter.fire(undefined));
  }

  getChildren(element?: SwarmsNode): SwarmsNode[] {
    if (element) return [];
    return [workerNode(this.worker.state), launchHintNode()];
  }

  getTreeItem(node: SwarmsNode): vscode.TreeItem {
    const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    item.description = node.description;
    item.tooltip = node.tooltip;
    item.iconPath = new vscode.ThemeIcon(node.icon);
    item.command = node.command;
    return item;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changeEmitter.dispose();
  }
}

/** The worker line, e.g. "Worker: ready (pid 4242)". */
export function workerNode(status: WorkerStatus): SwarmsNode {
  const check: vscode.Command = { command: "swarmboard.pingWorker", title: "Check Worker" };
  switch (status.state) {
    case "starting":
      return { id: "worker", label: "Worker: starting…", icon: "loading~spin", command: check };
    case "ready":
      return {
        id: "worker",
        label: `Worker: ready (pid ${status.pid})`,
        description: `v${status.version}`,
        tooltip: "The worker process that will hold the model. Click to check it answers.",
        icon: "pass",
        command: check,
      };
    case "exited":
      return {
        id: "worker",
        label: "Worker: stopped",
        description: status.reason,
        tooltip: "Click to start it again (see the Swarmboard output for why it stopped).",
        icon: "error",
        command: check,
      };
  }
}

function launchHintNode(): SwarmsNode {
  return {
    id: "launch-hint",
    label: "No swarm running",
    description: "Launch Swarm to start one",
    icon: "rocket",
    command: { command: "swarmboard.launchSwarm", title: "Launch Swarm" },
  };
}
