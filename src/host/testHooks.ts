// What `activate` returns when VS Code runs the extension under a test runner (ExtensionMode.Test) and only
// then: handles for the in-host tests of test/host to reach the worker, the panel, the tree and the log.
// Outside tests `activate` returns an empty object, so no other extension can drive Swarmboard through this.
import type * as vscode from "vscode";
import type { PanelState, WorkerStatus } from "../protocol/webviewMessages";
import type { HostLog } from "./hostLog";
import type { PanelController } from "./panel/panelController";
import type { ReviewSurfacesTestHooks } from "./review/reviewSurfaces";
import type { SwarmPanel } from "./panel/swarmPanel";
import type { LaunchInput } from "./launch/launchInput";
import type { SwarmDelegation } from "./lmTools/swarmDelegation";
import type { SwarmStatusBar } from "./statusBar";
import type { SwarmStore } from "./swarm/swarmStore";
import type { StuckWatch } from "./supervision/stuckWatch";
import type { SwarmsNode, SwarmsTreeProvider } from "./swarmsTree";
import type { PingResult, WorkerProcess } from "./workerProcess";

export interface SwarmboardTestHooks {
  readonly log: { recentLines(): readonly string[]; readonly onLine: vscode.Event<string> };
  readonly worker: {
    readonly state: WorkerStatus;
    readonly onDidChangeState: vscode.Event<WorkerStatus>;
    ping(): Promise<PingResult>;
  };
  readonly swarmsView: { readonly visible: boolean; roots(): SwarmsNode[] };
  /** The open panel, if any. */
  panel(): SwarmPanel | undefined;
  /** The swarm store, the status bar, the stuck watch and the panel's projected state (issue 7). */
  readonly swarms: SwarmTestHooks;
  /** Findings in the editor, branch review, models and approvals (issue 8). */
  readonly reviewSurfaces: ReviewSurfacesTestHooks;
  /** The service behind the language model tools, the chat participant (issue 18); tests set its overrides. */
  readonly delegation: SwarmDelegation;
  /** The @swarmboard chat participant (its requestHandler, for tests where the Chat view cannot send). */
  readonly participant: vscode.ChatParticipant;
}

export interface SwarmTestHooks {
  readonly store: SwarmStore;
  readonly statusBar: { readonly text: string; readonly tooltip: string };
  readonly stuck: StuckWatch;
  /** The children of a Swarms tree node (swarm -> agents -> findings). */
  children(node: SwarmsNode): SwarmsNode[];
  /** The state the panel is sent now (a projection of the store). */
  panelState(): PanelState;
  /** The worker's pid, for supervision tests. */
  workerPid(): number | undefined;
  readonly onWorkerGaveUp: vscode.Event<string>;
  /** The launch step on screen now (input box or quick pick), if any. */
  launchStep(): vscode.InputBox | vscode.QuickPick<vscode.QuickPickItem> | undefined;
}

export interface SwarmboardApi {
  /** Present only when the extension runs under a test runner. */
  readonly testing?: SwarmboardTestHooks;
}

export function createTestHooks(
  log: HostLog,
  worker: WorkerProcess,
  view: vscode.TreeView<SwarmsNode>,
  tree: SwarmsTreeProvider,
  panels: PanelController,
  swarm: { store: SwarmStore; statusBar: SwarmStatusBar; stuck: StuckWatch; launchInput: LaunchInput },
): Omit<SwarmboardTestHooks, "reviewSurfaces" | "delegation" | "participant"> {
  return {
    log: { recentLines: () => log.recentLines(), onLine: log.onLine },
    worker: {
      get state() {
        return worker.state;
      },
      onDidChangeState: worker.onDidChangeState,
      ping: () => worker.ping(),
    },
    swarmsView: {
      get visible() {
        return view.visible;
      },
      roots: () => tree.getChildren(),
    },
    panel: () => panels.current,
    swarms: {
      store: swarm.store,
      get statusBar() {
        return { text: swarm.statusBar.item.text, tooltip: String(swarm.statusBar.item.tooltip ?? "") };
      },
      stuck: swarm.stuck,
      children: (node) => tree.getChildren(node),
      panelState: () => panels.state(),
      workerPid: () => worker.pid,
      onWorkerGaveUp: worker.onDidGiveUp,
      launchStep: () => swarm.launchInput.current,
    },
  };
}
