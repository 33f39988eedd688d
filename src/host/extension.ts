// The extension's entry point: wires the log, the worker process, the Swarms tree, the panel and the
// commands. Each resource is registered for disposal where it is acquired.
import * as vscode from "vscode";
import { extensionVersion } from "../protocol/buildInfo";
import { registerCommands } from "./commands";
import { onDidChangeSettings, readSettings } from "./configuration";
import { HostLog } from "./hostLog";
import { PanelController } from "./panel/panelController";
import { registerReviewSurfaces } from "./review/reviewSurfaces";
import { LaunchInput } from "./launch/launchInput";
import { registerChatParticipant } from "./chat/swarmParticipant";
import { registerLanguageModelTools } from "./lmTools/languageModelTools";
import { SwarmDelegation } from "./lmTools/swarmDelegation";
import { SwarmStatusBar } from "./statusBar";
import { registerSwarmCommands } from "./swarm/swarmCommands";
import { SwarmStore } from "./swarm/swarmStore";
import { superviseSwarms } from "./supervision/swarmSupervision";
import { StuckWatch } from "./supervision/stuckWatch";
import { SwarmsTreeProvider } from "./swarmsTree";
import { createTestHooks, type SwarmboardApi } from "./testHooks";
import { WorkerProcess } from "./workerProcess";

export function activate(context: vscode.ExtensionContext): SwarmboardApi {
  const own = <T extends vscode.Disposable>(item: T): T => {
    context.subscriptions.push(item);
    return item;
  };
  const log = own(new HostLog());
  log.info(
    `Swarmboard ${extensionVersion} activating (VS Code ${vscode.version}, mode ${vscode.ExtensionMode[context.extensionMode]})`,
  );

  const reportSettings = (result: ReturnType<typeof readSettings>) => {
    if (result.ok) return;
    for (const problem of result.problems) log.warn(`settings: ${problem}`);
    void vscode.window.showWarningMessage(`Swarmboard: ${result.problems.join(" ")}`);
  };
  reportSettings(readSettings());
  own(onDidChangeSettings(reportSettings));

  const workerScript = vscode.Uri.joinPath(context.extensionUri, "dist", "worker", "main.js").fsPath;
  const worker = own(new WorkerProcess(workerScript, log));

  const store = own(new SwarmStore(worker));
  const stuck = own(new StuckWatch(store));
  const tree = own(new SwarmsTreeProvider(worker, store, (id) => stuck.isStuck(id)));
  const view = own(
    vscode.window.createTreeView("swarmboard.swarms", { treeDataProvider: tree, showCollapseAll: false }),
  );

  const panels = own(new PanelController(context.extensionUri, log, worker, store));
  for (const registration of registerCommands({ log, worker, openPanel: () => panels.show() })) own(registration);
  const statusBar = own(new SwarmStatusBar(store, worker));
  const launchInput = new LaunchInput();
  const swarmDeps = {
    worker,
    store,
    log,
    storageDir: context.globalStorageUri,
    input: launchInput,
    openPanel: () => void panels.show(),
    showLane: (id: string) => panels.showLane(id),
  };
  for (const registration of registerSwarmCommands(swarmDeps)) own(registration);
  const delegation = new SwarmDelegation(swarmDeps);
  for (const registration of registerLanguageModelTools(delegation)) own(registration);
  const participant = own(registerChatParticipant({ delegation, store, log }));
  own(superviseSwarms(worker, store, stuck, log));
  const review = registerReviewSurfaces({ worker, store, log, globalStorage: context.globalStorageUri });
  for (const disposable of review.disposables) own(disposable);

  worker.ensureStarted();

  if (context.extensionMode === vscode.ExtensionMode.Test) {
    return {
      testing: {
        ...createTestHooks(log, worker, view, tree, panels, { store, statusBar, stuck, launchInput }),
        reviewSurfaces: review.hooks,
        delegation,
        participant,
      },
    };
  }
  return {};
}

export function deactivate(): void {
  // Everything is in context.subscriptions; VS Code disposes them (the worker is stopped there).
}
