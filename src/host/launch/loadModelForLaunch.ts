// The launch's model step: the worker loads the model once (model/facts; the swarm reuses it) under a cancellable
// progress notification, and says how many agents fit; a failure says what to fix.
import * as vscode from "vscode";
import { toErrorData } from "../../core/rpc/rpcPeer";
import { modelFactsMethod } from "../../protocol/swarmRpc";
import { placementText } from "../models/modelFit";
import type { LaunchResult } from "./launchArgs";
import type { HostLog } from "../hostLog";
import type { WorkerProcess } from "../workerProcess";
import type { RuntimeRequest } from "./runtimeSettings";

/** Loads the model in the worker (model/facts loads it once; the swarm reuses it) under a cancellable notification. */
export async function loadModel(
  deps: { readonly worker: WorkerProcess; readonly log: HostLog },
  modelPath: string,
  threads: number,
  runtime: RuntimeRequest,
): Promise<{ outcome: "loaded"; fit: number } | LaunchResult> {
  const name = modelPath.split(/[\\/]/).pop() ?? modelPath;
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Swarmboard: loading ${name}`, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        progress.report({ message: "the worker maps the model once for all agents…" });
        const facts = await deps.worker.request(
          modelFactsMethod,
          { modelPath, threads, ...runtime },
          controller.signal,
        );
        deps.log.info(
          `model ${name}: ${facts.mode}, ${facts.bytesPerCell} bytes per ${facts.kvType} cell on ` +
            `${placementText(facts.placement)}; about ${facts.agentsThatFit} agents fit in ${facts.poolCells} cells ` +
            `(${facts.poolOrigin})`,
        );
        return { outcome: "loaded" as const, fit: facts.agentsThatFit };
      } catch (err) {
        if (token.isCancellationRequested)
          return { outcome: "cancelled" as const, reason: `Loading ${name} was cancelled; nothing was launched.` };
        const { code, message } = toErrorData(err);
        // Only a model file's own problem (model-not-found, model-corrupt, ...) points at swarmboard.modelPath; a
        // setting that asks for what cannot be (a memory budget too small, a GPU not there) says what to give itself.
        const reason = code.startsWith("model-")
          ? `Could not load the model ${modelPath}: ${message}. Check swarmboard.modelPath points at a GGUF file.`
          : `Could not load the model ${modelPath}: ${message}`;
        return { outcome: "failed" as const, reason };
      } finally {
        sub.dispose();
      }
    },
  );
}
