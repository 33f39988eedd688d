// "Swarmboard: Start Watching": a standing swarm on the workspace (the watch recipe: a router that only
// dispatches, workers that each own one task) that takes triggers until stopped; the editor's errors in its
// repository are among them, and a save runs its recipe's test command (src/host/swarm/editorTriggers.ts).
// An argument object may set any launch field.
import path from "node:path";
import * as vscode from "vscode";
import { defaultWatchGoal } from "../../core/builtinRecipes";
import type { Receipts } from "../receipts";
import { watchEditorForSwarm } from "../swarm/editorTriggers";
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
