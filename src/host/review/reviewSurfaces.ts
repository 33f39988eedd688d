// Wires what brings a swarm's work back under the user's control: findings in the editor and their list,
// the review of branches (diffs, merge, discard, worktrees) and command approvals. All of them read the one
// SwarmStore. The parts are returned so the test hooks (src/host/testHooks.ts) can reach them in test mode.
import * as vscode from "vscode";
import { ApprovalPrompts } from "../approvals/approvalPrompts";
import type { CommandHandler, HostCommand } from "../commandTable";
import { reportingFailures } from "../commandFailures";
import type { Confirmations } from "../confirmations";
import { FindingsInEditor } from "../findings/findingsInEditor";
import { listFindings } from "../findings/findingsList";
import type { HostLog } from "../hostLog";
import type { QuickPicker } from "../quickPicker";
import type { SwarmStore } from "../swarm/swarmStore";
import type { WorkerProcess } from "../workerProcess";
import { discardBranch, mergeBranch, openWorktree, type ReviewDeps } from "./branchActions";
import { openBranchDiff, toBranchTarget } from "./branchDiff";
import { branchOfDiff, closeDiffsOf } from "./diffTitleActions";
import { registerGitContent } from "./gitContentProvider";
import { BranchReviewCommand } from "./reviewBranches";

type ReviewCommand = Extract<
  HostCommand,
  | "listFindings"
  | "reviewBranches"
  | "openBranchDiff"
  | "mergeBranch"
  | "discardBranch"
  | "openAgentWorktree"
  | "mergeBranchInDiff"
  | "discardBranchInDiff"
>;

export interface ReviewSurfacesDeps {
  readonly worker: WorkerProcess;
  readonly store: SwarmStore;
  readonly log: HostLog;
  readonly confirmations: Confirmations;
  readonly picker: QuickPicker;
  refreshHistory(): Promise<unknown>;
}

export interface ReviewSurfaces {
  readonly disposable: vscode.Disposable;
  readonly handlers: Record<ReviewCommand, CommandHandler>;
  readonly findings: FindingsInEditor;
  readonly approvals: ApprovalPrompts;
}

export function createReviewSurfaces(deps: ReviewSurfacesDeps): ReviewSurfaces {
  const { worker, store, log, picker } = deps;
  const reviewDeps: ReviewDeps = {
    worker,
    store,
    log,
    confirmations: deps.confirmations,
    refreshHistory: deps.refreshHistory,
  };
  const findings = new FindingsInEditor(store);
  const approvals = new ApprovalPrompts(worker, store, log);
  const review = new BranchReviewCommand(reviewDeps, picker);
  // Each command reports its own failure and resolves undefined, so a palette click never fails silently.
  const handlers: Record<ReviewCommand, CommandHandler> = {
    listFindings: reportingFailures(log, "listFindings", (args?: { swarmId?: string }) =>
      listFindings(store, picker, args),
    ),
    reviewBranches: reportingFailures(log, "reviewBranches", (args?: { swarmId?: string }) => review.run(args)),
    // From the palette (no branch given) it starts at the branch list.
    openBranchDiff: reportingFailures(log, "openBranchDiff", async (arg?: unknown) =>
      arg === undefined ? review.run() : openBranchDiff(worker, store, log, toBranchTarget(arg)),
    ),
    mergeBranch: reportingFailures(log, "mergeBranch", (arg: unknown) => mergeBranch(reviewDeps, toBranchTarget(arg))),
    discardBranch: reportingFailures(log, "discardBranch", (arg: unknown) =>
      discardBranch(reviewDeps, toBranchTarget(arg)),
    ),
    openAgentWorktree: reportingFailures(log, "openAgentWorktree", (arg: unknown) =>
      openWorktree(reviewDeps, toBranchTarget(arg)),
    ),
    // The diff editor's title buttons: the branch comes from the diff itself.
    mergeBranchInDiff: reportingFailures(log, "mergeBranchInDiff", (arg?: unknown) =>
      mergeBranch(reviewDeps, branchOfDiff(arg)),
    ),
    discardBranchInDiff: reportingFailures(log, "discardBranchInDiff", async (arg?: unknown) => {
      const target = branchOfDiff(arg);
      const done = await discardBranch(reviewDeps, target);
      if (done !== undefined) await closeDiffsOf(target);
      return done;
    }),
  };
  const disposable = vscode.Disposable.from(findings, approvals, registerGitContent(worker, store));
  return { disposable, handlers, findings, approvals };
}
