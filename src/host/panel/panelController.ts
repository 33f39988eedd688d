// Keeps at most one Swarmboard panel, feeds it the current state and runs the actions it asks for.
import * as vscode from "vscode";
import { extensionVersion } from "../../protocol/buildInfo";
import type { PanelState } from "../../protocol/webviewMessages";
import type { HostLog } from "../hostLog";
import type { WorkerProcess } from "../workerProcess";
import { SwarmPanel, type PanelAction } from "./swarmPanel";

/** The fixed mapping from a panel action to a command: the page never names a command itself. */
const actionCommands: Record<PanelAction, string> = {
  pingWorker: "swarmboard.pingWorker",
  launchSwarm: "swarmboard.launchSwarm",
};

export class PanelController implements vscode.Disposable {
  private panel: SwarmPanel | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: HostLog,
    private readonly worker: WorkerProcess,
  ) {
    this.subscription = worker.onDidChangeState(() => this.panel?.setState(this.state()));
  }

  /** Opens the panel, or brings the open one to the front. */
  show(): SwarmPanel {
    if (this.panel) {
      this.panel.reveal();
      return this.panel;
    }
    const panel = new SwarmPanel(this.extensionUri, this.log, this.state(), (action) => {
      void vscode.commands.executeCommand(actionCommands[action]);
    });
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
    });
    this.panel = panel;
    return panel;
  }

  get current(): SwarmPanel | undefined {
    return this.panel;
  }

  private state(): PanelState {
    return { extensionVersion, worker: this.worker.state };
  }

  dispose(): void {
    this.subscription.dispose();
    this.panel?.dispose();
  }
}
