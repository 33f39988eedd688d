// "Swarmboard: Check Worker": asks the worker to answer and says what it answered, or why it did not.
import * as vscode from "vscode";
import { toErrorData } from "../core/rpc/rpcPeer";
import type { HostLog } from "./hostLog";
import type { PingResult, WorkerProcess } from "./workerProcess";

export async function pingWorker(log: HostLog, worker: WorkerProcess): Promise<PingResult | undefined> {
  try {
    const result = await worker.ping();
    const text = `Swarmboard worker ${result.version} answered (pid ${result.pid}, Node ${result.node}).`;
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
