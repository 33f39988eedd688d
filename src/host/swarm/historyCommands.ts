// "Resume Swarm" and "Clean Up Swarm": the two things a past swarm still needs from the user. Resume continues an
// interrupted or stopped swarm in this window's worker (history/resume, the CLI's --resume). Clean Up shows what
// would be lost (branches with commits your branch lacks, worktrees with uncommitted changes), asks in a modal,
// and only on yes removes exactly what was shown (history/cleanUp with the plan's lists): never silently.
import * as vscode from "vscode";
import { cleanUpSwarmMethod, resumeSwarmMethod, type CleanUpPlan } from "../../protocol/swarmHistoryRpc";
import type { TurnScript } from "../../protocol/turnScript";
import type { CommandHandler, HostCommand } from "../commandTable";
import { reportingFailures } from "../commandFailures";
import type { Confirmations } from "../confirmations";
import { readSettings } from "../configuration";
import { engineChoice } from "../launch/engineChoice";
import type { HostLog } from "../hostLog";
import type { Receipts } from "../receipts";
import type { WorkerProcess } from "../workerProcess";
import { watchEditorForSwarm } from "./editorTriggers";
import type { PastSwarms } from "./pastSwarms";
import type { SwarmStore } from "./swarmStore";
import { isCleanable, isResumable, swarmStatus, type HostSwarmView } from "./swarmStatus";

export interface HistoryCommandDeps {
  readonly worker: WorkerProcess;
  readonly store: SwarmStore;
  readonly log: HostLog;
  readonly confirmations: Confirmations;
  readonly receipts: Receipts;
  readonly history: PastSwarms;
  /** Scripted turns for the resumed agents (set by the in-host tests only, through their hooks). */
  readonly resumeOverrides: { script?: TurnScript };
  /** Where a remote engine's API key is kept: a resumed swarm runs on the engine the settings name now. */
  readonly secrets: vscode.SecretStorage;
  /** Keeps a disposable until the extension ends (a resumed standing swarm's watch of the editor). */
  readonly own: (disposable: vscode.Disposable) => void;
}

type HistoryCommand = Extract<HostCommand, "resumeSwarm" | "cleanUpSwarm">;

export interface CleanUpResult {
  readonly plan: CleanUpPlan;
  /** Absent when the user declined. */
  readonly removed?: { worktrees: string[]; branches: string[] };
}

function swarmIdOf(arg: unknown): string | undefined {
  return typeof arg === "object" && arg !== null && typeof (arg as { swarmId?: unknown }).swarmId === "string"
    ? (arg as { swarmId: string }).swarmId
    : undefined;
}

/** The swarm named by a tree node or a notice, else the user's pick among those it applies to. */
async function chooseFrom(
  store: SwarmStore,
  arg: unknown,
  fits: (view: HostSwarmView) => boolean,
  purpose: string,
): Promise<HostSwarmView | undefined> {
  const named = swarmIdOf(arg);
  if (named !== undefined) {
    const view = store.swarm(named);
    if (view === undefined) throw new Error(`There is no swarm ${named} in this window or the repository's history.`);
    return view;
  }
  const candidates = store.swarms().filter(fits);
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage(`Swarmboard: there is no swarm ${purpose}.`);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((s) => ({ label: s.goal || s.id, description: s.id, detail: s.endReason, id: s.id })),
    { title: `Swarmboard: which swarm ${purpose}?` },
  );
  return picked === undefined ? undefined : store.swarm(picked.id);
}

function placeOf(store: SwarmStore, swarmId: string): { workspace: string } {
  const place = store.place(swarmId);
  if (place === undefined) throw new Error(`The repository of swarm ${swarmId} is not known in this window.`);
  return place;
}

async function resume(deps: HistoryCommandDeps, arg: unknown): Promise<string | undefined> {
  const view = await chooseFrom(deps.store, arg, isResumable, "to resume (interrupted or stopped)");
  if (view === undefined) return undefined;
  if (!isResumable(view))
    throw new Error(
      `Swarm ${view.id} cannot be resumed: it is ${view.cleanedUpAt ? "cleaned up" : swarmStatus(view)}.`,
    );
  const { workspace } = placeOf(deps.store, view.id);
  const before = deps.store.resuming(view.id);
  try {
    const script = deps.resumeOverrides.script;
    const settings = readSettings();
    const engine = settings.ok ? await engineChoice(settings.settings, deps.secrets) : {};
    if ("refusal" in engine) throw new Error(engine.refusal);
    const { swarmId, standing } = await deps.worker.request(resumeSwarmMethod, {
      workspace,
      swarmId: view.id,
      ...engine,
      // The wait a person set now, not the one the swarm started with.
      ...(settings.ok ? { askUserTimeoutSeconds: settings.settings.askUserTimeoutSeconds } : {}),
      ...(script ? { script } : {}),
    });
    deps.log.info(`resumed swarm ${swarmId}${standing ? " (standing: the editor's errors go to it again)" : ""}`);
    // A standing swarm watched the editor's errors before it was interrupted (a reload, a crash): so it does again.
    if (standing) deps.own(watchEditorForSwarm(deps, swarmId, workspace));
    deps.receipts.say(
      `Swarmboard: swarm resumed${standing ? "; it takes the editor's errors again" : " where it stopped"}`,
    );
    return swarmId;
  } catch (error) {
    if (before) deps.store.restore(before);
    throw error;
  }
}

function planText(plan: CleanUpPlan): string {
  const lost = [
    ...plan.branches
      .filter((b) => plan.unmerged.includes(b.branch))
      .map((b) => `• ${b.branch}: ${b.unmergedCommits} commit(s) not in your branch`),
    ...plan.uncommitted.map((w) => `• ${w}: uncommitted changes`),
  ];
  const what = `It removes ${plan.branches.length} branch(es) and ${plan.worktrees.length} worktree(s). Your own branches are not touched.`;
  return lost.length === 0
    ? `${what}\n\nNothing unmerged: every commit of these branches is in your branch.`
    : `${what}\n\nThis work is not in your branch and would be lost:\n${lost.join("\n")}`;
}

async function cleanUp(deps: HistoryCommandDeps, arg: unknown): Promise<CleanUpResult | undefined> {
  const view = await chooseFrom(deps.store, arg, isCleanable, "to clean up");
  if (view === undefined) return undefined;
  if (!isCleanable(view))
    throw new Error(
      `Swarm ${view.id} cannot be cleaned up now: ${view.cleanedUpAt ? "it was cleaned up already" : "it is running"}.`,
    );
  const { workspace } = placeOf(deps.store, view.id);
  const { plan } = await deps.worker.request(cleanUpSwarmMethod, { workspace, swarmId: view.id });
  const unmerged = plan.unmerged.length + plan.uncommitted.length;
  const yes = await deps.confirmations.confirm(
    unmerged > 0
      ? `Clean up swarm ${view.id}? ${unmerged} unmerged branch(es) or worktree(s) would be lost.`
      : `Clean up swarm ${view.id}?`,
    planText(plan),
    "Clean Up",
  );
  if (!yes) return { plan };
  const done = await deps.worker.request(cleanUpSwarmMethod, {
    workspace,
    swarmId: view.id,
    confirm: { unmerged: plan.unmerged, uncommitted: plan.uncommitted },
  });
  deps.store.cleanedUp(view.id, Date.now());
  const removed = done.removed ?? { worktrees: [], branches: [] };
  const text = `Swarmboard: cleaned up ${view.id}: removed ${removed.branches.length} branch(es) and ${removed.worktrees.length} worktree(s).`;
  deps.log.info(text);
  void vscode.window.showInformationMessage(text);
  await deps.history.refresh();
  return { plan: done.plan, removed };
}

export function historyCommandHandlers(deps: HistoryCommandDeps): Record<HistoryCommand, CommandHandler> {
  return {
    resumeSwarm: reportingFailures(deps.log, "resumeSwarm", (arg?: unknown) => resume(deps, arg)),
    cleanUpSwarm: reportingFailures(deps.log, "cleanUpSwarm", (arg?: unknown) => cleanUp(deps, arg)),
  };
}
