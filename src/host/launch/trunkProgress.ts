// The trunk decode (the shared context, decoded once before any agent forks) takes tens of seconds on a laptop:
// a cancellable progress notification shows it until the swarm starts (or ends). Cancel stops the swarm.
import * as vscode from "vscode";
import { stopSwarmMethod } from "../../protocol/swarmRpc";
import type { HostLog } from "../hostLog";
import type { SwarmStore } from "../swarm/swarmStore";
import type { WorkerProcess } from "../workerProcess";

export interface TrunkProgressDeps {
  readonly worker: WorkerProcess;
  readonly store: SwarmStore;
  readonly log: HostLog;
}

/** Shows the notification while the swarm starts; resolves when it closes (undefined: the swarm was not starting). */
export function watchTrunkDecode(deps: TrunkProgressDeps, swarmId: string): Thenable<void> | undefined {
  const decoding = () => deps.store.swarm(swarmId)?.status === "starting";
  if (!decoding()) return undefined;
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: "Swarmboard: decoding the shared context once for all agents",
      cancellable: true,
    },
    (progress, token) =>
      new Promise<void>((resolve) => {
        progress.report({ message: "the agents fork from it when it is done…" });
        const done = () => {
          watch.dispose();
          cancel.dispose();
          resolve();
        };
        const watch = deps.store.onDidChange((change) => {
          if (change.swarmId === swarmId && !decoding()) done();
        });
        const cancel = token.onCancellationRequested(() => {
          deps.log.info(`swarm ${swarmId}: the trunk decode was cancelled; stopping the swarm`);
          deps.worker.request(stopSwarmMethod, { swarmId }).catch((err: unknown) => {
            deps.log.warn(`could not stop ${swarmId}: ${err instanceof Error ? err.message : String(err)}`);
          });
          done();
        });
      }),
  );
}
