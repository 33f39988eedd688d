// "Swarmboard: List Findings of a Swarm": every finding of one swarm in a quick pick; picking one that
// points at a file opens it at the line.
import * as vscode from "vscode";
import type { BoardEntry } from "../../protocol/board";
import type { QuickPicker } from "../quickPicker";
import { swarmStatus } from "../swarm/swarmStatus";
import type { SwarmStore } from "../swarm/swarmStore";
import { findingEntries, markLabel } from "./findingMarks";
import { swarmFolder } from "./findingsInEditor";

interface FindingItem extends vscode.QuickPickItem {
  readonly entry: BoardEntry;
}

const kindIcons: Record<string, string> = {
  OBSERVED: "$(eye)",
  FACT: "$(info)",
  FAIL: "$(error)",
  PATCH_SUMMARY: "$(git-commit)",
};

/** Opens a finding's first ref at its line; undefined when it points at no file. */
export async function openFinding(
  store: SwarmStore,
  swarmId: string,
  entry: BoardEntry,
): Promise<vscode.TextEditor | undefined> {
  const ref = entry.refs[0];
  const folder = swarmFolder(store, swarmId);
  if (ref === undefined || folder === undefined) return undefined;
  const uri = vscode.Uri.joinPath(vscode.Uri.file(folder), ref.path);
  const line = Math.max(0, (ref.line ?? 1) - 1);
  const document = await vscode.workspace.openTextDocument(uri);
  const at = new vscode.Position(Math.min(line, Math.max(0, document.lineCount - 1)), 0);
  return vscode.window.showTextDocument(document, { selection: new vscode.Range(at, at), preview: true });
}

/** The swarm to act on: the one named, the only one, or the user's pick (undefined when cancelled or none). */
export async function chooseSwarm(
  store: SwarmStore,
  swarmId: string | undefined,
  purpose: string,
): Promise<string | undefined> {
  if (swarmId !== undefined) return swarmId;
  const swarms = store.swarms();
  if (swarms.length === 0) {
    void vscode.window.showInformationMessage(`Swarmboard: there is no swarm ${purpose} yet. Launch one first.`);
    return undefined;
  }
  if (swarms.length === 1) return swarms[0]!.id;
  const picked = await vscode.window.showQuickPick(
    // The same status word as the tree's ("interrupted", not the worker's "failed" underneath).
    swarms.map((s) => ({ label: s.id, description: swarmStatus(s), detail: s.goal })),
    { title: `Swarmboard: which swarm ${purpose}?` },
  );
  return picked?.label;
}

export async function listFindings(
  store: SwarmStore,
  picker: QuickPicker,
  args?: { swarmId?: string },
): Promise<BoardEntry | undefined> {
  const swarmId = await chooseSwarm(store, args?.swarmId, "to list the findings of");
  if (swarmId === undefined) return undefined;
  const entries = findingEntries(store.swarm(swarmId)?.entries ?? []);
  if (entries.length === 0) {
    void vscode.window.showInformationMessage(`Swarmboard: swarm ${swarmId} has no findings yet.`);
    return undefined;
  }
  const items: FindingItem[] = entries.map((entry) => ({
    entry,
    label: `${kindIcons[entry.kind] ?? ""} ${markLabel(entry, 70)}`,
    description: entry.refs.map((r) => (r.line ? `${r.path}:${r.line}` : r.path)).join(", "),
    detail: entry.text,
  }));
  const picked = await picker.pick(items, {
    title: `Findings of ${swarmId}`,
    placeholder: "Pick a finding to open the file at its line",
  });
  if (picked === undefined) return undefined;
  await openFinding(store, swarmId, picked.entry);
  return picked.entry;
}
