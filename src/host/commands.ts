// The command palette entries. Commands that are not built yet say so plainly and do nothing else;
// none pretends to work.
import * as vscode from "vscode";
import { extensionVersion } from "../protocol/buildInfo";
import { toErrorData } from "../core/rpc/rpcPeer";
import type { HostLog } from "./hostLog";
import type { WorkerProcess, PingResult } from "./workerProcess";

export const commandIds = {
  launchSwarm: "swarmboard.launchSwarm",
  stopSwarm: "swarmboard.stopSwarm",
  openPanel: "swarmboard.openPanel",
  reviewBranches: "swarmboard.reviewBranches",
  selectModel: "swarmboard.selectModel",
  pingWorker: "swarmboard.pingWorker",
} as const;

/** What a not-yet-built command returns, so callers (and tests) can tell it did nothing. */
export const notBuiltResult = "not-built";

// Launch and Stop Swarm live in swarm/swarmCommands.ts.
const notBuilt: ReadonlyArray<{ id: string; title: string }> = [];

export interface CommandDeps {
  log: HostLog;
  worker: WorkerProcess;
  openPanel(): void;
}

export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const { log, worker } = deps;
  const registrations = notBuilt.map(({ id, title }) =>
    vscode.commands.registerCommand(id, () => {
      const text = `Swarmboard: "${title}" is not built yet in this version (${extensionVersion}). Nothing was started or changed.`;
      log.info(text);
      // Not awaited: the message stays up until dismissed and the command must not wait for that.
      void vscode.window.showInformationMessage(text);
      return notBuiltResult;
    }),
  );
  registrations.push(
    vscode.commands.registerCommand(commandIds.openPanel, () => deps.openPanel()),
    vscode.commands.registerCommand(commandIds.pingWorker, async (): Promise<PingResult | undefined> => {
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
    }),
  );
  return registrations;
}
