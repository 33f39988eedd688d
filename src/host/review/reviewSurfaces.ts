// Wires what brings a swarm's work back under the user's control: findings in the editor and their list,
// the review of branches (diffs, merge, discard, worktrees), model selection and command approvals. All of
// them read the one SwarmStore; the returned hooks reach the in-host tests only (see src/host/testHooks.ts).
import * as vscode from "vscode";
import type { SwarmViewState } from "../../core/swarmView";
import { startSwarmMethod, type StartSwarmParams } from "../../protocol/swarmRpc";
import { ApprovalPrompts, type ApprovalDecision, type OpenPrompt } from "../approvals/approvalPrompts";
import { FindingsInEditor, type ShownFinding } from "../findings/findingsInEditor";
import { listFindings } from "../findings/findingsList";
import type { HostLog } from "../hostLog";
import { defaultFreeMemory, PullInProgress, selectModel } from "../models/selectModel";
import type { SwarmStore } from "../swarm/swarmStore";
import type { WorkerProcess } from "../workerProcess";
import { discardBranch, mergeBranch, openWorktree, type ReviewDeps } from "./branchActions";
import { openBranchDiff, toBranchTarget } from "./branchDiff";
import { Confirmations } from "./confirmations";
import { QuickPicker } from "../quickPicker";
import { registerGitContent } from "./gitContentProvider";
import { BranchReviewCommand } from "./reviewBranches";

export const reviewCommandIds = {
  listFindings: "swarmboard.listFindings",
  reviewBranches: "swarmboard.reviewBranches",
  openBranchDiff: "swarmboard.openBranchDiff",
  mergeBranch: "swarmboard.mergeBranch",
  discardBranch: "swarmboard.discardBranch",
  openAgentWorktree: "swarmboard.openAgentWorktree",
  selectModel: "swarmboard.selectModel",
} as const;

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
  readonly swarms: { start(params: StartSwarmParams): Promise<string>; view(id: string): SwarmViewState | undefined };
}

export interface ReviewSurfacesDeps {
  readonly worker: WorkerProcess;
  readonly store: SwarmStore;
  readonly log: HostLog;
  readonly globalStorage: vscode.Uri;
}

export function registerReviewSurfaces(deps: ReviewSurfacesDeps): {
  disposables: vscode.Disposable[];
  hooks: ReviewSurfacesTestHooks;
} {
  const { worker, store, log } = deps;
  const confirmations = new Confirmations(log);
  const reviewDeps: ReviewDeps = { worker, store, log, confirmations };
  const findings = new FindingsInEditor(store);
  const approvals = new ApprovalPrompts(worker, store, log);
  const picker = new QuickPicker();
  const review = new BranchReviewCommand(reviewDeps, picker);
  let freeMemoryOverride: number | undefined;
  const modelDeps = {
    worker,
    log,
    confirmations,
    modelsDir: vscode.Uri.joinPath(deps.globalStorage, "models"),
    freeMemory: () => freeMemoryOverride ?? defaultFreeMemory(),
    pulls: new PullInProgress(),
  };
  // Each command reports its own failure and resolves undefined, so a palette click never fails silently.
  const guarded = <A extends unknown[], R>(id: string, run: (...args: A) => Promise<R>) =>
    vscode.commands.registerCommand(id, async (...args: A): Promise<R | undefined> => {
      try {
        return await run(...args);
      } catch (error) {
        const text = `Swarmboard: ${(error as Error).message}`;
        log.error(`${id}: ${(error as Error).message}`);
        void vscode.window.showErrorMessage(text);
        return undefined;
      }
    });
  const disposables: vscode.Disposable[] = [
    findings,
    approvals,
    registerGitContent(worker, store),
    guarded(reviewCommandIds.listFindings, (args?: { swarmId?: string }) => listFindings(store, picker, args)),
    guarded(reviewCommandIds.reviewBranches, (args?: { swarmId?: string }) => review.run(args)),
    // From the palette (no branch given) it starts at the branch list.
    guarded(reviewCommandIds.openBranchDiff, async (arg?: unknown) =>
      arg === undefined ? review.run() : openBranchDiff(worker, store, log, toBranchTarget(arg)),
    ),
    guarded(reviewCommandIds.mergeBranch, (arg: unknown) => mergeBranch(reviewDeps, toBranchTarget(arg))),
    guarded(reviewCommandIds.discardBranch, (arg: unknown) => discardBranch(reviewDeps, toBranchTarget(arg))),
    guarded(reviewCommandIds.openAgentWorktree, (arg: unknown) => openWorktree(reviewDeps, toBranchTarget(arg))),
    guarded(reviewCommandIds.selectModel, (args?: { path?: string; pullUri?: string }) => selectModel(modelDeps, args)),
  ];
  const hooks: ReviewSurfacesTestHooks = {
    findings: { shownIn: (uri) => findings.shownIn(uri) },
    approvals: {
      pending: () => approvals.pending(),
      answer: (id, decision) => approvals.answer(id, decision),
      setTimeoutMs: (ms) => approvals.setTimeoutMs(ms),
    },
    confirmations: {
      answerNext: (...answers) => confirmations.answerNext(...answers),
      questions: () => confirmations.questions(),
    },
    picker: () => picker.current,
    models: {
      setFreeMemory: (bytes) => (freeMemoryOverride = bytes),
      cancelPull: () => {
        const running = modelDeps.pulls.abort;
        running?.abort();
        return running !== undefined;
      },
      pullProgress: () => modelDeps.pulls.progress,
    },
    swarms: {
      start: async (params) => {
        const { swarmId } = await worker.request(startSwarmMethod, params);
        store.launched(swarmId, { workspace: params.workspace, stateDir: params.stateDir, params });
        return swarmId;
      },
      view: (id) => store.swarm(id),
    },
  };
  return { disposables, hooks };
}
