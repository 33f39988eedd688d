// Keeps at most one Swarmboard panel, feeds it a projection of the swarm store and runs the actions it asks
// for. Store changes arrive per event batch; the panel gets at most one state per `postIntervalMs`, so a
// 16-agent swarm does not flood the page (the page batches again into animation frames).
import * as vscode from "vscode";
import { DisposableBase } from "../../core/disposable";
import { extensionVersion } from "../../protocol/buildInfo";
import type { PanelState } from "../../protocol/webviewMessages";
import { commandId, type HostCommand } from "../commandTable";
import type { HostLog } from "../hostLog";
import type { SwarmStore } from "../swarm/swarmStore";
import type { WorkerProcess } from "../workerProcess";
import { projectSwarm } from "./panelProjection";
import { SwarmPanel, type PanelAction, type PanelRequest } from "./swarmPanel";

/** The fixed mapping from a panel action to a command: the page never names a command itself. */
const actionCommands: Record<PanelAction, HostCommand> = {
  pingWorker: "pingWorker",
  launchSwarm: "launchSwarm",
  stopSwarm: "stopSwarm",
};

const postIntervalMs = 150;

export class PanelController extends DisposableBase {
  private panel: SwarmPanel | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: HostLog,
    private readonly worker: WorkerProcess,
    private readonly swarms: SwarmStore,
  ) {
    super();
    this.register(worker.onDidChangeState(() => this.schedule()));
    this.register(swarms.onDidChange(() => this.schedule()));
    this.register({ dispose: () => clearTimeout(this.timer) });
    this.register({ dispose: () => this.panel?.dispose() });
  }

  /** Opens the panel, or brings the open one to the front. */
  show(): SwarmPanel {
    if (this.panel) {
      this.panel.reveal();
      return this.panel;
    }
    const panel = new SwarmPanel(
      this.extensionUri,
      this.log,
      this.state(),
      (action) => void vscode.commands.executeCommand(commandId(actionCommands[action])),
      (request) => void this.handle(request),
    );
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
    });
    this.panel = panel;
    return panel;
  }

  /** Opens the panel and scrolls to one agent's lane. */
  showLane(agentId: string): void {
    const panel = this.show();
    if (panel.isReady) panel.focusLane(agentId);
    else {
      const once = panel.onDidBecomeReady(() => {
        once.dispose();
        panel.focusLane(agentId);
      });
    }
  }

  get current(): SwarmPanel | undefined {
    return this.panel;
  }

  /** The state the panel shows now (tests compare the page's DOM with it). */
  state(): PanelState {
    const swarm = this.swarms.current();
    return { extensionVersion, worker: this.worker.state, ...(swarm ? { swarm: projectSwarm(swarm) } : {}) };
  }

  private schedule(): void {
    if (!this.panel || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.panel?.setState(this.state());
    }, postIntervalMs);
  }

  /** Each request runs the same command as the tree's (those check their arguments again and say what failed). */
  private async handle(request: PanelRequest): Promise<void> {
    const swarm = this.swarms.current();
    if (!swarm) return;
    const run = (name: HostCommand, arg: object) =>
      vscode.commands.executeCommand(commandId(name), { swarmId: swarm.id, ...arg });
    switch (request.type) {
      case "stopAgent":
        await run("stopAgent", { agentId: request.agentId });
        return;
      case "pauseAgent":
        await run(request.paused ? "pauseAgent" : "resumeAgent", { agentId: request.agentId });
        return;
      case "sendMessage":
        if (request.to === "swarm") await run("messageSwarm", { text: request.text });
        else await run("messageAgent", { agentId: request.to, text: request.text });
        return;
      case "addTask":
        await run("addTask", { text: request.text });
        return;
      case "answerQuestion":
        await run("answerQuestion", { questionId: request.questionId, text: request.text });
        return;
      case "openFinding":
        // It keeps the path inside the swarm's workspace.
        await run("openFindingRef", { path: request.path, line: request.line ?? 1 });
        return;
    }
  }
}
