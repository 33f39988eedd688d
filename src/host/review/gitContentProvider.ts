// Read-only documents of a file at a git ref of a swarm, for VS Code's diff editors:
// `swarmboard-git:/src/stats.js?swarm=<id>&ref=<branch or commit>`. The worker reads git
// (`review/fileAtRef`); the host only knows where the swarm works (the store's launch place).
import * as vscode from "vscode";
import { fileAtRefMethod } from "../../protocol/swarmRpc";
import type { SwarmStore } from "../swarm/swarmStore";
import type { WorkerProcess } from "../workerProcess";

export const gitScheme = "swarmboard-git";

export function refUri(swarmId: string, ref: string, filePath: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: gitScheme,
    path: `/${filePath}`,
    query: new URLSearchParams({ swarm: swarmId, ref }).toString(),
  });
}

export function parseRefUri(uri: vscode.Uri): { swarmId: string; ref: string; path: string } {
  const query = new URLSearchParams(uri.query);
  const swarmId = query.get("swarm");
  const ref = query.get("ref");
  if (!swarmId || !ref)
    throw new Error(`${uri.toString()} names no swarm and ref: open it from "Swarmboard: Review Agent Branches".`);
  return { swarmId, ref, path: uri.path.replace(/^\//, "") };
}

export class SwarmGitContentProvider implements vscode.TextDocumentContentProvider {
  constructor(
    private readonly worker: WorkerProcess,
    private readonly store: SwarmStore,
  ) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const { swarmId, ref, path } = parseRefUri(uri);
    const place = this.store.place(swarmId);
    if (place === undefined)
      throw new Error(`Swarm ${swarmId} was not launched in this window, so its repository is unknown here.`);
    const file = await this.worker.request(fileAtRefMethod, {
      workspace: place.workspace,
      stateDir: place.stateDir,
      swarmId,
      ref,
      path,
    });
    if (!file.exists) return "";
    return file.truncated
      ? `${file.content}\n… (truncated by Swarmboard: the file is larger than the review shows)\n`
      : file.content;
  }
}

export function registerGitContent(worker: WorkerProcess, store: SwarmStore): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(gitScheme, new SwarmGitContentProvider(worker, store));
}
