// The only place test hooks live: what `activate` returns when VS Code runs the extension under a test runner
// (ExtensionMode.Test) and only then. The in-host tests of test/host reach the worker, the panel, the tree,
// the log and the review surfaces through it. Outside tests `activate` returns an empty object, so no other
// extension can drive Swarmboard through this.
import type * as vscode from "vscode";
import type { SwarmViewState } from "../core/swarmView";
import { startSwarmMethod, type StartSwarmParams } from "../protocol/swarmRpc";
import type { PanelState, WorkerStatus } from "../protocol/webviewMessages";
import type { ApprovalDecision, ApprovalPrompts, OpenPrompt } from "./approvals/approvalPrompts";
import type { Confirmations } from "./confirmations";
import type { FindingsInEditor, ShownFinding } from "./findings/findingsInEditor";
import type { HostLog } from "./hostLog";
import { watchTrunkDecode } from "./launch/trunkProgress";
import type { LaunchInput } from "./launch/launchInput";
import type { SwarmDelegation } from "./lmTools/swarmDelegation";
import type { ModelDeps } from "./models/selectModel";
import type { Notice, NoticePick, Notices } from "./notices";
import type { PanelController } from "./panel/panelController";
import type { SwarmPanel } from "./panel/swarmPanel";
import type { QuickPicker } from "./quickPicker";
import type { Receipts } from "./receipts";
import type { SwarmStatusBar } from "./statusBar";
import type { StuckWatch } from "./supervision/stuckWatch";
import type { PastSwarms } from "./swarm/pastSwarms";
import type { SwarmStore } from "./swarm/swarmStore";
import type { TurnScript } from "../protocol/turnScript";
import type { SwarmsNode, SwarmsTreeProvider } from "./tree/swarmsTree";
import type { PingResult, WorkerProcess } from "./workerProcess";

export interface SwarmboardTestHooks {
  readonly log: { recentLines(): readonly string[]; readonly onLine: vscode.Event<string> };
  readonly worker: {
    readonly state: WorkerStatus;
    readonly onDidChangeState: vscode.Event<WorkerStatus>;
    ping(): Promise<PingResult>;
    /** Whether the window is attached to the shared worker (false: a worker of its own). */
    readonly shared: boolean;
  };
  readonly swarmsView: { readonly visible: boolean; roots(): SwarmsNode[]; reveal(node: SwarmsNode): Thenable<void> };
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
  /** Past swarms (issue 14): read the repository's history again; the script resumed agents follow. */
  readonly history: { refresh(): Promise<number>; readonly resumeOverrides: { script?: TurnScript } };
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
  /** Notifications with actions shown so far (swarm ended, interrupted), and a way to pick the next one's button. */
  readonly notices: {
    recent(): readonly Notice[];
    answerNext(pick: NoticePick): void;
  };
  /** The short status bar answers of steering, stop, resume and watch actions, oldest first. */
  receipts(): readonly string[];
}

export interface ReviewSurfacesTestHooks {
  readonly findings: { shownIn(uri: vscode.Uri): readonly ShownFinding[] };
  readonly approvals: {
    pending(): readonly OpenPrompt[];
    answer(requestId: string, decision: ApprovalDecision): boolean;
    setTimeoutMs(ms: number | undefined): void;
  };
  readonly confirmations: { answerNext(...answers: boolean[]): void; questions(): readonly string[] };
  /** Our quick pick on screen now (findings list, branch review). */
  picker(): vscode.QuickPick<vscode.QuickPickItem> | undefined;
  readonly models: {
    setFreeMemory(bytes: number | undefined): void;
    /** Cancels the download in progress as its notification's Cancel button does; false when none runs. */
    cancelPull(): boolean;
    pullProgress(): { downloadedBytes: number; totalBytes: number } | undefined;
  };
  /** Starts a swarm straight through the worker and records it in the store, as a launch does. */
  readonly swarms: {
    /** `decodeNotice`: show the trunk decode's notification too, as a launch does. */
    start(params: StartSwarmParams, options?: { decodeNotice?: boolean }): Promise<string>;
    view(id: string): SwarmViewState | undefined;
    /** The trunk decode's notification of a swarm started with `decodeNotice`: open, closed, or never shown. */
    decodeNotice(id: string): "open" | "closed" | undefined;
  };
}

export interface SwarmboardApi {
  /** Present only when the extension runs under a test runner. */
  readonly testing?: SwarmboardTestHooks;
}

/** The parts of the running extension the hooks reach. */
export interface HookedParts {
  readonly log: HostLog;
  readonly worker: WorkerProcess;
  readonly view: vscode.TreeView<SwarmsNode>;
  readonly tree: SwarmsTreeProvider;
  readonly panels: PanelController;
  readonly store: SwarmStore;
  readonly statusBar: SwarmStatusBar;
  readonly stuck: StuckWatch;
  readonly launchInput: LaunchInput;
  readonly findings: FindingsInEditor;
  readonly approvals: ApprovalPrompts;
  readonly confirmations: Confirmations;
  readonly picker: QuickPicker;
  readonly models: ModelDeps;
  readonly notices: Notices;
  readonly receipts: Receipts;
  readonly delegation: SwarmDelegation;
  readonly participant: vscode.ChatParticipant;
  readonly history: PastSwarms;
  readonly resumeOverrides: { script?: TurnScript };
}

export function createTestHooks(parts: HookedParts): SwarmboardTestHooks {
  const { log, worker, view, tree, panels, store } = parts;
  return {
    log: { recentLines: () => log.recentLines(), onLine: log.onLine },
    worker: {
      get state() {
        return worker.state;
      },
      onDidChangeState: worker.onDidChangeState,
      ping: () => worker.ping(),
      get shared() {
        return worker.shared;
      },
    },
    swarmsView: {
      get visible() {
        return view.visible;
      },
      roots: () => tree.getChildren(),
      reveal: (node) => view.reveal(node, { expand: 2, select: true, focus: false }),
    },
    panel: () => panels.current,
    swarms: {
      store,
      get statusBar() {
        return { text: parts.statusBar.item.text, tooltip: String(parts.statusBar.item.tooltip ?? "") };
      },
      stuck: parts.stuck,
      children: (node) => tree.getChildren(node),
      panelState: () => panels.state(),
      workerPid: () => worker.pid,
      onWorkerGaveUp: worker.onDidGiveUp,
      launchStep: () => parts.launchInput.current,
      notices: {
        recent: () => parts.notices.recent(),
        answerNext: (pick) => parts.notices.answerNext(pick),
      },
      receipts: () => parts.receipts.recent(),
    },
    reviewSurfaces: reviewSurfacesHooks(parts),
    delegation: parts.delegation,
    participant: parts.participant,
    history: { refresh: () => parts.history.refresh(), resumeOverrides: parts.resumeOverrides },
  };
}

function reviewSurfacesHooks(parts: HookedParts): ReviewSurfacesTestHooks {
  const { approvals, confirmations, models, worker, store } = parts;
  const decodeNotices = new Map<string, "open" | "closed">();
  return {
    findings: { shownIn: (uri) => parts.findings.shownIn(uri) },
    approvals: {
      pending: () => approvals.pending(),
      answer: (id, decision) => approvals.answer(id, decision),
      setTimeoutMs: (ms) => approvals.setTimeoutMs(ms),
    },
    confirmations: {
      answerNext: (...answers) => confirmations.answerNext(...answers),
      questions: () => confirmations.questions(),
    },
    picker: () => parts.picker.current,
    models: {
      setFreeMemory: (bytes) => (models.freeMemory.override = bytes),
      cancelPull: () => {
        const running = models.pulls.abort;
        running?.abort();
        return running !== undefined;
      },
      pullProgress: () => models.pulls.progress,
    },
    swarms: {
      start: async (params, options) => {
        const { swarmId } = await worker.request(startSwarmMethod, params);
        store.launched(swarmId, { workspace: params.workspace, stateDir: params.stateDir, params });
        const shown = options?.decodeNotice ? watchTrunkDecode({ worker, store, log: parts.log }, swarmId) : undefined;
        if (shown !== undefined) {
          decodeNotices.set(swarmId, "open");
          void Promise.resolve(shown).then(() => decodeNotices.set(swarmId, "closed"));
        }
        return swarmId;
      },
      view: (id) => store.swarm(id),
      decodeNotice: (id) => decodeNotices.get(id),
    },
  };
}
