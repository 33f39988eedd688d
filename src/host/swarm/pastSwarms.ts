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
    const shownLive = (swarmId: string) => {
      const known = this.swarms.swarm(swarmId);
      return known !== undefined && known.past === undefined;
    };
    // The shared worker sends a swarm's events only to the windows that follow it. This folder's live swarms are
    // followed before their traces are read, and read only up to where each stood then: a finding posted while a
    // reloaded window reads is then either in what it reads or in the events held meanwhile, never in neither.
    const live = listed.swarms.filter((p) => served.has(p.swarmId)).map((p) => p.swarmId);
    const caughtUp = live.filter((id) => !shownLive(id));
    for (const id of caughtUp) this.swarms.hold(id);
    try {
      const marks = await this.follow(live);
      let count = 0;
      for (const past of listed.swarms) {
        if (shownLive(past.swarmId)) continue;
        const view = await this.readBack(workspace, past, served.has(past.swarmId), marks[past.swarmId]);
        if (this.swarms.remember(view, { workspace, stateDir: past.stateDir })) count++;
        this.swarms.release(past.swarmId);
      }
      this.log.info(`history of ${workspace}: ${listed.swarms.length} swarm(s) recorded, ${count} shown as past`);
      return count;
    } finally {
      for (const id of caughtUp) this.swarms.release(id);
    }
  }

  /** Follows `swarmIds` on this connection; resolves with where each one's trace stood as its events began here. */
  private async follow(swarmIds: readonly string[]): Promise<Record<string, number>> {
    if (swarmIds.length === 0) return {};
    const answer = await this.worker.request(swarmFollowMethod, { swarmIds: [...swarmIds] }).catch((error: unknown) => {
      this.log.warn(`the shared worker's live swarms could not be followed: ${toErrorData(error).message}`);
      return undefined;
    });
    return answer?.traceBytes ?? {};
  }

  /** A recorded swarm's view: its trace (up to `traceBytes` for a live one) and board, folded. */
  private async readBack(workspace: string, past: PastSwarm, servedHere: boolean, traceBytes?: number) {
    const events = await this.worker
      .request(pastSwarmEventsMethod, {
        workspace,
        swarmId: past.swarmId,
        ...(traceBytes !== undefined ? { traceBytes } : {}),
      })
      .catch((error: unknown) => {
        this.log.warn(`swarm ${past.swarmId}: its trace and board could not be read: ${toErrorData(error).message}`);
        return { events: [], problems: [] };
      });
    for (const problem of events.problems) this.log.warn(`swarm ${past.swarmId}: ${problem}`);
    return pastSwarmView(past, events.events, { servedHere, lastSeenRunning: this.lastSeenRunning(past.swarmId) });
  }
}
