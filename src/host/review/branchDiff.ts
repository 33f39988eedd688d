// Opens an agent's (or the integration) branch as diffs, base vs branch, one diff editor per changed file
// served by the `swarmboard-git:` content provider. One `vscode.diff` per file rather than the multi-diff
// editor: each file gets a plain text diff tab that the user can close or keep on its own, and whose two
// sides the tests can read back through the stable tab API.
import * as vscode from "vscode";
import { changedFilesMethod } from "../../protocol/swarmRpc";
import type { HostLog } from "../hostLog";
import type { SwarmStore } from "../swarm/swarmStore";
import type { WorkerProcess } from "../workerProcess";
import { refUri } from "./gitContentProvider";

/** Most diff editors opened at once; the rest are named in the message. */
const maxDiffs = 12;

/** `swarmboard/<swarm>/<agent or main>` split into its parts; undefined for other branches. */
export function branchParts(branch: string): { swarmId: string; name: string } | undefined {
  const m = /^(?:refs\/heads\/)?swarmboard\/([a-z0-9][a-z0-9_-]*)\/([a-z0-9][a-z0-9_-]*)$/.exec(branch);
  return m ? { swarmId: m[1]!, name: m[2]! } : undefined;
}

export interface BranchTarget {
  readonly swarmId: string;
  readonly branch: string;
}

/** Accepts a branch name (what the tree passes) or `{ swarmId, branch }`. */
export function toBranchTarget(arg: unknown): BranchTarget {
  if (typeof arg === "string") {
    const parts = branchParts(arg);
    if (parts === undefined)
      throw new Error(`${arg} is not a Swarmboard branch (expected swarmboard/<swarm>/<agent>).`);
    return { swarmId: parts.swarmId, branch: arg };
  }
  if (typeof arg === "object" && arg !== null && typeof (arg as BranchTarget).branch === "string") {
    const { branch, swarmId } = arg as Partial<BranchTarget> & { branch: string };
    return { swarmId: swarmId ?? branchParts(branch)?.swarmId ?? "", branch };
  }
  throw new Error("Name a branch to open: swarmboard.openBranchDiff takes a branch name or { swarmId, branch }.");
}

export function reviewTarget(
  store: SwarmStore,
  swarmId: string,
): { workspace: string; stateDir: string; swarmId: string } {
  const place = store.place(swarmId);
  if (place === undefined)
    throw new Error(
      `Swarm ${swarmId} was not launched in this window, so its repository is unknown here. Review it from the window that launched it.`,
    );
  return { workspace: place.workspace, stateDir: place.stateDir, swarmId };
}

export interface OpenedDiff {
  readonly path: string;
  readonly left: vscode.Uri;
  readonly right: vscode.Uri;
}

export async function openBranchDiff(
  worker: WorkerProcess,
  store: SwarmStore,
  log: HostLog,
  target: BranchTarget,
): Promise<OpenedDiff[]> {
  const changed = await worker.request(changedFilesMethod, {
    ...reviewTarget(store, target.swarmId),
    branch: target.branch,
  });
  if (changed.files.length === 0) {
    void vscode.window.showInformationMessage(`Swarmboard: ${target.branch} changes no files.`);
    return [];
  }
  const short = branchParts(target.branch)?.name ?? target.branch;
  const opened: OpenedDiff[] = [];
  for (const file of changed.files.slice(0, maxDiffs)) {
    const left = refUri(target.swarmId, changed.base, file.oldPath ?? file.path);
    const right = refUri(target.swarmId, target.branch, file.path);
    const title = `${file.path} (${file.status}: base ↔ ${short})`;
    await vscode.commands.executeCommand("vscode.diff", left, right, title, {
      preview: false,
      preserveFocus: opened.length > 0,
    });
    opened.push({ path: file.path, left, right });
  }
  const rest = changed.files.length - opened.length;
  log.info(`opened ${opened.length} diff(s) of ${target.branch}${rest > 0 ? `; ${rest} more file(s) not opened` : ""}`);
  if (rest > 0) {
    void vscode.window.showInformationMessage(
      `Swarmboard: opened the first ${opened.length} files of ${target.branch}; ${rest} more changed: ${changed.files
        .slice(maxDiffs)
        .map((f) => f.path)
        .join(", ")}`,
    );
  }
  return opened;
}
