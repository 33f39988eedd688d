// "Swarmboard: Start Watching": a standing swarm on the workspace (the watch recipe: a router that only
// dispatches, workers that each own one task) that takes triggers until stopped; the editor's errors in its
// repository are among them, and a save runs its recipe's test command (src/host/swarm/editorTriggers.ts).
// An argument object may set any launch field.
import path from "node:path";
import * as vscode from "vscode";
import { defaultWatchGoal } from "../../core/builtinRecipes";
import type { Receipts } from "../receipts";
import { toErrorData } from "../../core/rpc/rpcPeer";
import { stopSwarmMethod } from "../../protocol/swarmRpc";
import { watchEditorForSwarm, watchedSwarms } from "../swarm/editorTriggers";
import type { LaunchResult } from "./launchArgs";
import { launchSwarm, type LaunchDeps } from "./launchSwarm";

export async function startWatching(
  deps: LaunchDeps,
  own: (disposable: vscode.Disposable) => void,
  receipts: Receipts,
  raw?: unknown,
): Promise<LaunchResult> {
  const given = typeof raw === "object" && raw !== null ? raw : {};
  const args = { goal: defaultWatchGoal, recipe: "watch", standing: {}, ...given };
  const result = await launchSwarm(deps, args);
  if (result.outcome !== "launched") return result;
  const repository =
    (given as { workspace?: unknown }).workspace ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? undefined;
  // It stops by itself when the swarm ends, and with the extension at the latest.
  if (typeof repository === "string") {
    own(watchEditorForSwarm(deps, result.swarmId, repository));
    receipts.say(`Swarmboard: watching ${path.basename(repository)}: new errors and saves (tests) go to the swarm`);
  }
  return result;
}

/**
 * "Swarmboard: Stop Watching": stops the standing swarms this window watches (their agents stop at their next step,
 * the editor's errors and saves stop going to them), and says which; says so when none is watching.
 */
export async function stopWatching(deps: LaunchDeps, receipts: Receipts): Promise<string[]> {
  const ids = watchedSwarms();
  if (ids.length === 0) {
    void vscode.window.showInformationMessage("Swarmboard: nothing is being watched (Start Watching begins).");
    return [];
  }
  const stopped: string[] = [];
  for (const swarmId of ids) {
    try {
      if ((await deps.worker.request(stopSwarmMethod, { swarmId })).stopping) stopped.push(swarmId);
    } catch (err) {
      void vscode.window.showErrorMessage(`Swarmboard: could not stop ${swarmId}: ${toErrorData(err).message}`);
    }
  }
  if (stopped.length > 0) receipts.say(`Swarmboard: stopped watching (${stopped.join(", ")}); its agents stop now`);
  return stopped;
}
