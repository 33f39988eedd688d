// Keeps at most one Swarmboard panel, feeds it a projection of the swarm store and runs the actions it asks
// for. Store changes arrive per event batch; the panel gets at most one state per `postIntervalMs`, so a
// 16-agent swarm does not flood the page (the page batches again into animation frames).
import * as vscode from "vscode";
import { DisposableBase } from "../../core/disposable";
import { extensionVersion } from "../../protocol/buildInfo";
import { panelRestoreStateSchema, panelViewType } from "../../protocol/panelRestore";
import type { PanelState } from "../../protocol/webviewMessages";
import { commandId, type HostCommand } from "../commandTable";
import type { HostLog } from "../hostLog";
import type { HostSwarmView } from "../swarm/swarmStatus";
import type { SwarmStore } from "../swarm/swarmStore";
import type { WorkerProcess } from "../workerProcess";
import { projectSwarm } from "./panelProjection";
import { createPanelTab, SwarmPanel, type PanelAction, type PanelRequest } from "./swarmPanel";

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
  /** The swarm a restored panel showed before the reload: shown while no swarm of this window is. */
  private restoredSwarmId: string | undefined;

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
    // A reload (or a restart) brings the tab back: VS Code keeps it with the page's state and activates us for it.
    this.register(
      vscode.window.registerWebviewPanelSerializer(panelViewType, {
        deserializeWebviewPanel: (tab, state: unknown) => {
          this.restore(tab, state);
          return Promise.resolve();
        },
      }),
    );
  }

  /** Opens the panel, or brings the open one to the front. */
  show(): SwarmPanel {
    if (this.panel) {
      this.panel.reveal();
      return this.panel;
    }
    return this.adopt(createPanelTab());
  }

  /** Takes over a tab VS Code restored, showing the swarm its page kept (read from the history once listed). */
  restore(tab: vscode.WebviewPanel, state: unknown): SwarmPanel {
    const parsed = panelRestoreStateSchema.safeParse(state ?? {});
    if (!parsed.success) this.log.warn("panel: the restored page's state failed its schema; it shows the default");
    this.restoredSwarmId = parsed.success ? parsed.data.swarmId : undefined;
    this.log.info(`panel: restored after a reload (showing ${this.restoredSwarmId ?? "the default swarm"})`);
    // One panel at a time: an older one (unlikely: the tab is restored before anything opens one) gives way.
    this.panel?.dispose();
    return this.adopt(tab);
  }

  private adopt(tab: vscode.WebviewPanel): SwarmPanel {
    const panel = new SwarmPanel(
      tab,
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

  /** The swarm the panel shows: the one this window runs or ran, else the one a restored panel showed. */
  shown(): HostSwarmView | undefined {
    const current = this.swarms.current();
    if (current || this.restoredSwarmId === undefined) return current;
    return this.swarms.swarm(this.restoredSwarmId);
  }

  /** The state the panel shows now (tests compare the page's DOM with it). */
  state(): PanelState {
    const swarm = this.shown();
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
    const swarm = this.shown();
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
