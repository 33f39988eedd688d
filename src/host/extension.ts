// The extension's entry point: wires the log, the worker process, the Swarms tree, the panel and the
// commands (one table, src/host/commandTable.ts). Each resource is registered for disposal where it is acquired.
import * as vscode from "vscode";
import { extensionVersion } from "../protocol/buildInfo";
import { registerCommandTable } from "./commandTable";
import { reportingFailures } from "./commandFailures";
import { readSettings, reportSettingsProblems } from "./configuration";
import { Confirmations } from "./confirmations";
import { HostLog } from "./hostLog";
import { launchSwarm, launchWithEditorContext } from "./launch/launchSwarm";
import { startWatching, stopWatching } from "./launch/startWatching";
import { memoryCommandHandlers } from "./memory/memoryCommands";
import { RepositoryMemories } from "./memory/repositoryMemories";
import { LaunchInput } from "./launch/launchInput";
import { setEngineApiKey } from "./launch/engineChoice";
import { registerChatParticipant } from "./chat/swarmParticipant";
import { registerLanguageModelTools } from "./lmTools/languageModelTools";
import { SwarmDelegation } from "./lmTools/swarmDelegation";
import { ModelMemory } from "./models/modelMemory";
import { trackModelSet } from "./models/modelSetContext";
import { trackSwarmStarted } from "./launch/walkthroughContext";
import { downloadModel, FreeMemory, PullInProgress, selectModel, type ModelDeps } from "./models/selectModel";
import { Notices } from "./notices";
import { startWhenTrusted } from "./restrictedMode";
import { NotServedNotices } from "./swarm/notServedNotices";
import { PanelController } from "./panel/panelController";
import { pingWorker } from "./pingWorker";
import { QuickPicker } from "./quickPicker";
import { Receipts } from "./receipts";
import { createReviewSurfaces } from "./review/reviewSurfaces";
import { SwarmStatusBar } from "./statusBar";
import { historyCommandHandlers, type HistoryCommandDeps } from "./swarm/historyCommands";
import { PastSwarms } from "./swarm/pastSwarms";
import { ReloadInterruptions } from "./swarm/reloadInterruptions";
import { swarmCommandHandlers } from "./swarm/swarmCommands";
import { QuestionPrompts } from "./swarm/questionPrompts";
import { steeringCommandHandlers } from "./swarm/steeringCommands";
import { SwarmEndNotices } from "./swarm/swarmEndNotices";
import { SwarmStore } from "./swarm/swarmStore";
import { superviseSwarms } from "./supervision/swarmSupervision";
import { StuckWatch } from "./supervision/stuckWatch";
import { createTestHooks, type SwarmboardApi } from "./testHooks";
import { SwarmsTreeProvider } from "./tree/swarmsTree";
import { WorkerProcess } from "./workerProcess";
import { buildRuntimeCommand } from "./runtimeBuildCommand";

export function activate(context: vscode.ExtensionContext): SwarmboardApi {
  // Nothing that edits or runs starts in an untrusted folder; the views and commands say why (restrictedMode.ts).
  if (!vscode.workspace.isTrusted) {
    startWhenTrusted(context, () => activateTrusted(context));
    return {};
  }
  return activateTrusted(context);
}

function activateTrusted(context: vscode.ExtensionContext): SwarmboardApi {
  const own = <T extends vscode.Disposable>(item: T): T => {
    context.subscriptions.push(item);
    return item;
  };
  const log = own(new HostLog());
  log.info(
    `Swarmboard ${extensionVersion} activating (VS Code ${vscode.version}, mode ${vscode.ExtensionMode[context.extensionMode]})`,
  );
  own(reportSettingsProblems(log));

  const workerScript = vscode.Uri.joinPath(context.extensionUri, "dist", "worker", "main.js").fsPath;
  const sharedWorker = () => {
    const read = readSettings();
    return read.ok && read.settings.sharedWorker;
  };
  const worker = own(new WorkerProcess(workerScript, log, sharedWorker));
  const store = own(new SwarmStore(worker));
  const stuck = own(new StuckWatch(store));
  own(trackModelSet(store));
  own(trackSwarmStarted(store));
  const memories = own(new RepositoryMemories(worker, store, log));
  const tree = own(new SwarmsTreeProvider(worker, store, (id) => stuck.isStuck(id), memories));
  const view = own(
    vscode.window.createTreeView("swarmboard.swarms", { treeDataProvider: tree, showCollapseAll: false }),
  );
  const panels = own(new PanelController(context.extensionUri, log, worker, store));
  const statusBar = own(new SwarmStatusBar(store, worker));
  const launchInput = new LaunchInput();
  const confirmations = new Confirmations(log);
  const picker = new QuickPicker();
  const notices = new Notices();
  const receipts = own(new Receipts());
  const models = modelDeps(context, { worker, log, confirmations, notices, picker });
  // Listed when the worker is ready: after a reload the repository's earlier swarms are back in the tree.
  const interruptions = own(new ReloadInterruptions(store, context.workspaceState, notices, log));
  const history = own(new PastSwarms(worker, store, log, (id) => interruptions.lastSeenRunning(id)));
  const review = createReviewSurfaces({
    worker,
    store,
    log,
    confirmations,
    picker,
    refreshHistory: () => history.refresh(),
  });
  const resumeOverrides: HistoryCommandDeps["resumeOverrides"] = {};
  own(review.disposable);
  const launchDeps = {
    worker,
    store,
    log,
    storageDir: context.globalStorageUri,
    input: launchInput,
    models,
    secrets: context.secrets,
    openPanel: () => void panels.show(),
  };
  own(
    registerCommandTable({
      ...swarmCommandHandlers({ ...launchDeps, receipts, showLane: (id) => panels.showLane(id) }),
      ...review.handlers,
      ...historyCommandHandlers({
        worker,
        store,
        log,
        confirmations,
        receipts,
        history,
        resumeOverrides,
        secrets: context.secrets,
        own,
      }),
      ...memoryCommandHandlers({ memories, confirmations, picker, log }),
      // The steering boxes are the launch's input (one input on screen at a time; tests answer it the same way).
      ...steeringCommandHandlers({ worker, store, log, input: launchInput, receipts }),
      launchSwarm: (arg?: unknown) => launchSwarm(launchDeps, arg),
      launchSwarmWithContext: (arg?: unknown) => launchWithEditorContext(launchDeps, arg),
      startWatching: (arg?: unknown) => startWatching(launchDeps, own, receipts, arg),
      stopWatching: () => stopWatching(launchDeps, receipts),
      selectModel: reportingFailures(log, "selectModel", (args?: { path?: string; pullUri?: string }) =>
        selectModel(models, args),
      ),
      pullModel: reportingFailures(log, "pullModel", () => downloadModel(models)),
      buildRuntime: (arg?: { gpu?: string }) => buildRuntimeCommand(context.extensionPath, log, arg),
      openPanel: () => panels.show(),
      pingWorker: () => pingWorker(log, worker),
      setEngineApiKey: () => setEngineApiKey(context.secrets),
    }),
  );
  const delegation = new SwarmDelegation(launchDeps);
  for (const registration of registerLanguageModelTools(delegation)) own(registration);
  const participant = own(registerChatParticipant({ delegation, store, log }));
  own(superviseSwarms(worker, store, stuck, log));
  own(new SwarmEndNotices(store, notices, log));
  own(new NotServedNotices(store, notices, log));
  own(new QuestionPrompts(store, notices, log));
  worker.ensureStarted();

  if (context.extensionMode !== vscode.ExtensionMode.Test) return {};
  const { findings, approvals } = review;
  const parts = { log, worker, view, tree, panels, store, statusBar, stuck, launchInput, confirmations, picker };
  const more = { notices, receipts, findings, approvals, models, delegation, participant, history, resumeOverrides };
  return { testing: createTestHooks({ ...parts, ...more }) };
}

function modelDeps(
  context: vscode.ExtensionContext,
  parts: Pick<ModelDeps, "worker" | "log" | "confirmations" | "picker" | "notices">,
): ModelDeps {
  return {
    ...parts,
    modelsDir: vscode.Uri.joinPath(context.globalStorageUri, "models"),
    freeMemory: new FreeMemory(),
    pulls: new PullInProgress(),
    memory: new ModelMemory(context.globalState, parts.notices, parts.log),
  };
}

export function deactivate(): void {
  // Everything is in context.subscriptions; VS Code disposes them (the worker is stopped there).
}
