// What the user sees of supervision: a worker that crashed too often is reported with a restart action; a
// swarm whose worker died is marked interrupted in the store (its events will never come); a stuck worker (no
// events while agents are live) is reported as such, with the same restart action. The shared worker outlives this
// window's connection: when the connection ends, its swarms are asked about once attached again, and only those it
// no longer runs (it died, or was restarted) are interrupted; the others are followed again and caught up.
import * as vscode from "vscode";
import { serverStatusMethod } from "../../protocol/serverRpc";
import { rejoinServed } from "../swarm/rejoinedSwarms";
import { isRunning } from "../swarm/swarmStatus";
import type { HostLog } from "../hostLog";
import type { SwarmStore } from "../swarm/swarmStore";
import type { WorkerProcess } from "../workerProcess";
import type { StuckWatch } from "./stuckWatch";

const restartAction = "Restart Worker";

export function superviseSwarms(
  worker: WorkerProcess,
  store: SwarmStore,
  stuck: StuckWatch,
  log: HostLog,
): vscode.Disposable {
  const offerRestart = async (text: string) => {
    const picked = await vscode.window.showErrorMessage(text, restartAction);
    if (picked === restartAction) worker.restart("restarted by the user");
  };
  return vscode.Disposable.from(
    worker.onDidExit(({ how, shared, leftStopped }) => {
      // The swarms lived in that process: nothing more will come for them, so they end as interrupted and keep
      // no live state (the end notice offers what to do next).
      if (!shared) for (const view of store.swarms()) store.interrupt(view.id, `the worker ${how}`);
      // Asking the shared worker would start a connection the supervisor leaves stopped: this window cannot follow
      // them now, whatever the server does.
      else if (leftStopped)
        for (const view of store.swarms()) store.interrupt(view.id, "this window cannot reach the shared worker");
      else void interruptUnlessServed(worker, store, log);
    }),
    worker.onDidGiveUp(
      (reason) =>
        void offerRestart(
          `Swarmboard: the worker ${reason}${reason.endsWith(".") ? "" : "."} See the Swarmboard output for why.`,
        ),
    ),
    stuck.onDidReport(({ swarmId, quietMs, liveAgents }) => {
      const text = `Swarmboard: the worker looks stuck: swarm ${swarmId} has ${liveAgents} live agents and sent no progress for ${Math.round(quietMs / 1000)} s.`;
      log.warn(text);
      void offerRestart(text);
    }),
  );
}

/** After the shared worker's connection ended: once attached again, interrupt the swarms it no longer runs. */
async function interruptUnlessServed(worker: WorkerProcess, store: SwarmStore, log: HostLog) {
  // Judged by the answer: only the runs shown when the connection ended. A swarm resumed (or launched) while the
  // answer comes is a new run the answer may predate: two quick connection ends ask twice, and the second, older
  // answer interrupted a standing swarm just resumed, whose editor watch then stopped for good.
  const shownThen = new Map(
    store
      .swarms()
      .filter(isRunning)
      .map((v) => [v.id, v.startedAt] as const),
  );
  let running: readonly string[] = [];
  try {
    running = (await worker.request(serverStatusMethod, {})).swarms;
  } catch (err) {
    log.warn(`the shared worker could not say which swarms it runs: ${(err as Error).message}`);
  }
  for (const view of store.swarms())
    // The server that ran it is gone (killed, or stopped and started again): that is what the person needs to know,
    // rather than how this window's connection ended (the log has that).
    if (!running.includes(view.id) && shownThen.has(view.id) && shownThen.get(view.id) === view.startedAt)
      store.interrupt(view.id, "the shared worker stopped (it no longer runs this swarm)");
  // The new connection follows this window's swarms that still run (the old one's following ended with it), with
  // what they did while no connection was there.
  const ours = store
    .swarms()
    .filter((v) => running.includes(v.id) && isRunning(v))
    .map((v) => v.id);
  await rejoinServed(worker, store, log, ours);
}
