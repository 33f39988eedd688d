// The swarm commands' handlers: stop the swarm, stop one agent, show an agent's lane, open a finding's file,
// restart the worker. Each acts on the store's swarms (never on a copy) and says plainly when it cannot.
// (Launch lives in launch/, which depends on this folder's store, never the other way round.)
import * as path from "node:path";
import * as vscode from "vscode";
import { toErrorData } from "../../core/rpc/rpcPeer";
import { stopAgentMethod, stopSwarmMethod } from "../../protocol/swarmRpc";
import type { CommandHandler, HostCommand } from "../commandTable";
import type { HostLog } from "../hostLog";
import type { Receipts } from "../receipts";
import type { SwarmStore } from "./swarmStore";
import type { WorkerProcess } from "../workerProcess";

export interface SwarmCommandDeps {
  readonly worker: WorkerProcess;
  readonly store: SwarmStore;
  readonly log: HostLog;
  readonly receipts: Receipts;
  openPanel(): void;
  showLane(agentId: string): void;
}

type SwarmCommand = Extract<HostCommand, "stopSwarm" | "stopAgent" | "showLane" | "openFindingRef" | "restartWorker">;

interface AgentRef {
  readonly swarmId?: string;
  readonly agentId?: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}

export function swarmCommandHandlers(deps: SwarmCommandDeps): Record<SwarmCommand, CommandHandler> {
  const { worker, store, log } = deps;
  const running = () => store.swarms().find((s) => s.status === "running" || s.status === "starting");
  const agentRef = (arg: unknown): AgentRef =>
    isRecord(arg) ? { swarmId: String(arg.swarmId ?? ""), agentId: String(arg.agentId ?? "") } : {};
  return {
    stopSwarm: async (arg?: unknown): Promise<boolean> => {
      const swarmId = isRecord(arg) && typeof arg.swarmId === "string" ? arg.swarmId : running()?.id;
      if (!swarmId) {
        void vscode.window.showInformationMessage("Swarmboard: no swarm is running, so there is nothing to stop.");
        return false;
      }
      try {
        const { stopping } = await worker.request(stopSwarmMethod, { swarmId });
        log.info(`stop swarm ${swarmId}: ${stopping ? "stopping" : "not running in the worker"}`);
        deps.receipts.say(
          stopping
            ? "Swarmboard: stopping the swarm; each agent stops at its next step"
            : `Swarmboard: ${swarmId} was not running any more`,
        );
        return stopping;
      } catch (err) {
        void vscode.window.showErrorMessage(`Swarmboard: could not stop ${swarmId}: ${toErrorData(err).message}`);
        return false;
      }
    },
    stopAgent: async (arg?: unknown): Promise<boolean> => {
      const { swarmId, agentId } = agentRef(arg);
      if (!swarmId || !agentId) return false;
      try {
        const { stopping } = await worker.request(stopAgentMethod, { swarmId, agentId });
        if (!stopping) void vscode.window.showInformationMessage(`Swarmboard: ${agentId} is not running any more.`);
        else deps.receipts.say(`Swarmboard: ${agentId} stops at its next step; the others go on`);
        return stopping;
      } catch (err) {
        void vscode.window.showErrorMessage(`Swarmboard: could not stop ${agentId}: ${toErrorData(err).message}`);
        return false;
      }
    },
    showLane: (arg?: unknown) => {
      const { agentId } = agentRef(arg);
      if (agentId) deps.showLane(agentId);
      else deps.openPanel();
    },
    openFindingRef: (arg?: unknown) => openFindingRef(store, log, arg),
    restartWorker: () => worker.restart("restarted by the user"),
  };
}

/** Opens a finding's file at its line, never outside the swarm's workspace (the path comes from an agent). */
async function openFindingRef(store: SwarmStore, log: HostLog, arg: unknown): Promise<void> {
  if (!isRecord(arg) || typeof arg.path !== "string") return;
  const root =
    (typeof arg.swarmId === "string" ? store.place(arg.swarmId)?.workspace : undefined) ??
    vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!root) return;
  const file = path.resolve(root, arg.path);
  const rel = path.relative(root, file);
  // The path comes from an agent's finding: never open anything outside the swarm's workspace.
  if (rel.startsWith("..") || path.isAbsolute(rel)) {
    log.warn(`refused to open ${arg.path}: it is outside the workspace ${root}`);
    return;
  }
  const line = Math.max(0, (typeof arg.line === "number" ? arg.line : 1) - 1);
  try {
    await vscode.window.showTextDocument(vscode.Uri.file(file), {
      selection: new vscode.Range(line, 0, line, 0),
      preview: true,
    });
  } catch (err) {
    void vscode.window.showWarningMessage(`Swarmboard: could not open ${arg.path}: ${(err as Error).message}`);
  }
}
