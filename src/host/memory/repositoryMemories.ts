// The memories of the window's repositories (what earlier swarms verified, src/protocol/memory.ts), read from the
// worker (memory/list, judged against each folder's HEAD) for the Swarms view's "Memories" node. Read when the
// worker is ready, when a swarm ends (it may have remembered something), when the node is opened, and after a
// delete; the tree reads the last listing and is told when it changed.
import * as vscode from "vscode";
import { DisposableBase } from "../../core/disposable";
import { toErrorData } from "../../core/rpc/rpcPeer";
import type { JudgedMemory } from "../../protocol/memory";
import { deleteMemoriesMethod, listMemoriesMethod } from "../../protocol/memoryRpc";
import type { HostLog } from "../hostLog";
import type { SwarmStore } from "../swarm/swarmStore";
import type { WorkerProcess } from "../workerProcess";

/** A memory and the folder whose repository holds it. */
export interface FolderMemory {
  readonly workspace: string;
  readonly judged: JudgedMemory;
}

export class RepositoryMemories extends DisposableBase {
  private readonly changeEmitter = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changeEmitter.event;
  private listed: FolderMemory[] = [];
  private listedKey = "[]";
  private reading: Promise<void> | undefined;
  private endedSwarms = 0;

  constructor(
    private readonly worker: WorkerProcess,
    swarms: SwarmStore,
    private readonly log: HostLog,
  ) {
    super();
    this.register(
      worker.onDidChangeState((state) => {
        if (state.state === "ready") void this.refresh();
      }),
    );
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(() => void this.refresh()));
    this.register(
      swarms.onDidChange(() => {
        const ended = swarms.swarms().filter((s) => s.endedAt !== undefined).length;
        if (ended !== this.endedSwarms) void this.refresh();
        this.endedSwarms = ended;
      }),
    );
  }

  /** The last listing, newest first per folder. */
  memories(): readonly FolderMemory[] {
    return this.listed;
  }

  /** Lists every folder's memory again; never throws (a folder that is not a repository has none). */
  refresh(): Promise<void> {
    const next = (this.reading ?? Promise.resolve()).then(() => this.readAll());
    this.reading = next;
    return next;
  }

  private async readAll(): Promise<void> {
    const listed: FolderMemory[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== "file") continue;
      const workspace = folder.uri.fsPath;
      try {
        const { memories, problems } = await this.worker.request(listMemoriesMethod, { workspace });
        for (const problem of problems) this.log.warn(`memory of ${workspace}: ${problem}`);
        listed.push(...memories.map((judged) => ({ workspace, judged })));
      } catch (error) {
        this.log.info(`memory of ${workspace}: ${toErrorData(error).message}`);
      }
    }
    // Told only when something changed: the tree reads again on every change and opening the node reads here.
    const key = JSON.stringify(listed);
    if (key === this.listedKey) return;
    this.listed = listed;
    this.listedKey = key;
    this.changeEmitter.fire();
  }

  /** Ranked by the words (BM25, the same ranking a trunk's choice uses), across the window's folders. */
  async search(query: string): Promise<FolderMemory[]> {
    const found: FolderMemory[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== "file") continue;
      const workspace = folder.uri.fsPath;
      const { memories } = await this.worker.request(listMemoriesMethod, { workspace, query });
      found.push(...memories.map((judged) => ({ workspace, judged })));
    }
    return found;
  }

  async delete(workspace: string, id: string): Promise<boolean> {
    const { deleted } = await this.worker.request(deleteMemoriesMethod, { workspace, ids: [id] });
    await this.refresh();
    return deleted.includes(id);
  }
}
