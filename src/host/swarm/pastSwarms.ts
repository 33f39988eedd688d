// The repository's past swarms in this window: after a reload or a restart the worker lists them from the
// registry (outcome, branches measured by git) and reads each one's trace and board, and the store holds them
// beside the swarms this window runs. Read again when the worker (re)starts, the folders change, or a history
// command changed something.
import * as vscode from "vscode";
import { DisposableBase } from "../../core/disposable";
import { toErrorData } from "../../core/rpc/rpcPeer";
import { listSwarmsMethod, pastSwarmEventsMethod, type PastSwarm } from "../../protocol/swarmHistoryRpc";
import { serverStatusMethod, swarmFollowMethod } from "../../protocol/serverRpc";
import type { HostLog } from "../hostLog";
import type { WorkerProcess } from "../workerProcess";
import { pastSwarmView } from "./pastSwarmView";
import type { SwarmStore } from "./swarmStore";

export class PastSwarms extends DisposableBase {
  private reading: Promise<number> | undefined;

  constructor(
    private readonly worker: WorkerProcess,
    private readonly swarms: SwarmStore,
    private readonly log: HostLog,
    /** When the window before this one last saw a swarm running (ReloadInterruptions keeps it). */
    private readonly lastSeenRunning: (swarmId: string) => number | undefined = () => undefined,
  ) {
    super();
    this.register(
      worker.onDidChangeState((state) => {
        if (state.state === "ready") void this.refresh();
      }),
    );
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(() => void this.refresh()));
  }

  /** Reads every folder's history into the store; resolves with how many past swarms it holds. Never throws. */
  refresh(): Promise<number> {
    // One reading at a time; a request during one waits for it and then reads again (something changed since).
    const next = (this.reading ?? Promise.resolve(0)).then(() => this.readAll());
    this.reading = next;
    return next;
  }

  private async readAll(): Promise<number> {
    let count = 0;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== "file") continue;
      count += await this.readFolder(folder.uri.fsPath);
    }
    return count;
  }

  /** The swarms the shared worker runs (none for a private worker: it runs none this window did not launch). */
  private async servedSwarms(): Promise<ReadonlySet<string>> {
    if (!this.worker.shared) return new Set();
    const status = await this.worker.request(serverStatusMethod, {}).catch(() => undefined);
    return new Set(status?.swarms ?? []);
  }

  private async readFolder(workspace: string): Promise<number> {
    let listed: { swarms: PastSwarm[]; problems: string[] };
    try {
      listed = await this.worker.request(listSwarmsMethod, { workspace });
    } catch (error) {
      // A folder that is not a git repository has no history: said once in the log, not as an error.
      this.log.info(`history of ${workspace}: ${toErrorData(error).message}`);
      return 0;
    }
    for (const problem of listed.problems) this.log.warn(`history of ${workspace}: ${problem}`);
    const served = await this.servedSwarms();
    let count = 0;
    for (const past of listed.swarms) {
      const known = this.swarms.swarm(past.swarmId);
      if (known !== undefined && known.past === undefined) continue;
      const events = await this.worker
        .request(pastSwarmEventsMethod, { workspace, swarmId: past.swarmId })
        .catch((error: unknown) => {
          this.log.warn(`swarm ${past.swarmId}: its trace and board could not be read: ${toErrorData(error).message}`);
          return { events: [], problems: [] };
        });
      for (const problem of events.problems) this.log.warn(`swarm ${past.swarmId}: ${problem}`);
      const view = pastSwarmView(past, events.events, {
        servedHere: served.has(past.swarmId),
        lastSeenRunning: this.lastSeenRunning(past.swarmId),
      });
      if (this.swarms.remember(view, { workspace, stateDir: past.stateDir })) count++;
    }
    this.log.info(`history of ${workspace}: ${listed.swarms.length} swarm(s) recorded, ${count} shown as past`);
    // The shared worker sends a swarm's events only to the windows that follow it: this folder's live ones, from now
    // on (what happened before is in the trace just read).
    const live = listed.swarms.filter((p) => served.has(p.swarmId)).map((p) => p.swarmId);
    if (live.length > 0) await this.worker.request(swarmFollowMethod, { swarmIds: live }).catch(() => undefined);
    return count;
  }
}
