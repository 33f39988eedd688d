// "Swarmboard: Check Worker": asks the worker to answer and says what it answered, or why it did not. The shared
// worker also says what it serves: its clients, swarms, models loaded and memory.
import * as vscode from "vscode";
import { toErrorData } from "../core/rpc/rpcPeer";
import { serverStatusMethod } from "../protocol/serverRpc";
import type { HostLog } from "./hostLog";
import type { PingResult, WorkerProcess } from "./workerProcess";

export async function pingWorker(log: HostLog, worker: WorkerProcess): Promise<PingResult | undefined> {
  try {
    const result = await worker.ping();
    const served = worker.shared ? await sharedWorkerFacts(worker) : "";
    const text = `Swarmboard ${worker.shared ? "shared " : ""}worker ${result.version} answered (pid ${result.pid}, Node ${result.node}).${served}`;
    log.info(text);
    void vscode.window.showInformationMessage(text);
    return result;
  } catch (err) {
    const { code, message } = toErrorData(err);
    log.error(`ping failed (${code}): ${message}`);
    void vscode.window.showErrorMessage(`Swarmboard: the worker did not answer: ${message}`);
    return undefined;
  }
}

/** What the shared worker serves, in one sentence (empty when it cannot say). */
async function sharedWorkerFacts(worker: WorkerProcess): Promise<string> {
  const status = await worker.request(serverStatusMethod, {}).catch(() => undefined);
  if (status === undefined) return "";
  const mib = Math.round(status.rssBytes / (1024 * 1024));
  const clients = status.clients.map((c) => c.kind).join(", ");
  return (
    ` It serves ${status.clients.length} client(s) (${clients}) and ${status.swarms.length} swarm(s); ` +
    `${status.modelLoads} model load(s), ${mib} MiB of memory.`
  );
}
