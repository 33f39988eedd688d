// What `activate` returns when VS Code runs the extension under a test runner (ExtensionMode.Test) and only
// then: handles for the in-host tests of test/host to reach the worker, the panel, the tree and the log.
// Outside tests `activate` returns an empty object, so no other extension can drive Swarmboard through this.
import type * as vscode from "vscode";
import type { WorkerStatus } from "../protocol/webviewMessages";
import type { HostLog } from "./hostLog";
import type { PanelController } from "./panel/panelController";
import type { SwarmPanel } from "./panel/swarmPanel";
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
): SwarmboardTestHooks {
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
  };
}
