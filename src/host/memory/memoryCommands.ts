// "Search Memories" and "Delete Memory": the repository's memory across swarms from the Swarms view and the
// palette. Search ranks by the words given (BM25, as a new trunk's choice does) and shows the hits in a quick
// pick; picking one opens its file at its line. Delete takes a memory node (or a pick among all of them), asks in
// a modal, and removes only that memory.
import path from "node:path";
import * as vscode from "vscode";
import type { CommandHandler, HostCommand } from "../commandTable";
import { reportingFailures } from "../commandFailures";
import type { Confirmations } from "../confirmations";
import type { HostLog } from "../hostLog";
import type { QuickPicker } from "../quickPicker";
import type { FolderMemory, RepositoryMemories } from "./repositoryMemories";

export interface MemoryCommandDeps {
  readonly memories: RepositoryMemories;
  readonly confirmations: Confirmations;
  readonly picker: QuickPicker;
  readonly log: HostLog;
}

type MemoryCommand = Extract<HostCommand, "searchMemories" | "deleteMemory">;

function pickItem(m: FolderMemory): vscode.QuickPickItem & { memory: FolderMemory } {
  const { memory, status } = m.judged;
  return {
    label: memory.text.replace(/\s+/g, " ").trim(),
    description: `${memory.id} · ${memory.kind} · ${status}`,
    detail: `swarm ${memory.swarmId}, ${memory.agent} · ${memory.files.map((f) => f.path).join(", ")}`,
    memory: m,
  };
}

async function openAt(m: FolderMemory): Promise<void> {
  const ref = m.judged.memory.refs[0] ?? { path: m.judged.memory.files[0]!.path, line: 1 };
  const line = Math.max(0, (ref.line ?? 1) - 1);
  const uri = vscode.Uri.file(path.join(m.workspace, ref.path));
  await vscode.window.showTextDocument(uri, { selection: new vscode.Range(line, 0, line, 0), preview: true });
}

/** The ids found, best first (tests read them); the pick opens the memory's file. */
async function search(deps: MemoryCommandDeps, arg?: { query?: string }): Promise<string[] | undefined> {
  const query =
    arg?.query ??
    (await vscode.window.showInputBox({
      title: "Swarmboard: Search Memories",
      prompt: "Words to look for in what earlier swarms verified on this repository",
    }));
  if (query === undefined || query.trim() === "") return undefined;
  const found = await deps.memories.search(query.trim());
  if (found.length === 0) {
    void vscode.window.showInformationMessage(`Swarmboard: no memory shares a word with "${query.trim()}".`);
    return [];
  }
  void deps.picker
    .pick(found.map(pickItem), { title: `Swarmboard: memories for "${query.trim()}", best first` })
    .then((picked) => (picked ? openAt(picked.memory) : undefined));
  return found.map((m) => m.judged.memory.id);
}

function nodeMemory(deps: MemoryCommandDeps, arg: unknown): FolderMemory | undefined {
  const node = arg as { memoryId?: unknown; workspace?: unknown } | undefined;
  if (typeof node?.memoryId !== "string") return undefined;
  const found = deps.memories
    .memories()
    .find(
      (m) => m.judged.memory.id === node.memoryId && (node.workspace === undefined || m.workspace === node.workspace),
    );
  if (found === undefined) throw new Error(`There is no memory ${node.memoryId} any more; the list was refreshed.`);
  return found;
}

/** True when the memory was deleted; undefined when the user chose nothing or declined. */
async function remove(deps: MemoryCommandDeps, arg: unknown): Promise<boolean | undefined> {
  if (arg === undefined) await deps.memories.refresh();
  const chosen =
    nodeMemory(deps, arg) ??
    (await deps.picker.pick(deps.memories.memories().map(pickItem), { title: "Swarmboard: delete which memory?" }))
      ?.memory;
  if (chosen === undefined) return undefined;
  const { memory } = chosen.judged;
  const yes = await deps.confirmations.confirm(
    `Delete memory ${memory.id}?`,
    `${memory.kind} from swarm ${memory.swarmId} (${memory.agent}): ${memory.text}\n\nLater swarms will no longer be given it.`,
    "Delete",
  );
  if (!yes) return undefined;
  const deleted = await deps.memories.delete(chosen.workspace, memory.id);
  deps.log.info(`memory ${memory.id} ${deleted ? "deleted" : "was already gone"}`);
  return deleted;
}

export function memoryCommandHandlers(deps: MemoryCommandDeps): Record<MemoryCommand, CommandHandler> {
  return {
    searchMemories: reportingFailures(deps.log, "searchMemories", (arg?: { query?: string }) => search(deps, arg)),
    deleteMemory: reportingFailures(deps.log, "deleteMemory", (arg?: unknown) => remove(deps, arg)),
  };
}
