// The launch's model step: the worker loads the model once (model/facts; the swarm reuses it) and says how many
// agents fit; a failure says what to fix. With a saved model the load starts when the wizard opens (a status bar
// spinner while the goal is typed), so the model step usually finds it loaded; only a load still running then shows
// the cancellable notification, and cancelling it cancels only the wait.
import * as vscode from "vscode";
import { toErrorData } from "../../core/rpc/rpcPeer";
import { modelFactsMethod } from "../../protocol/swarmRpc";
import { placementText } from "../models/modelFit";
import type { LaunchResult } from "./launchArgs";
import type { HostLog } from "../hostLog";
import type { WorkerProcess } from "../workerProcess";
import type { RuntimeRequest } from "./runtimeSettings";

interface ModelDeps {
  readonly worker: WorkerProcess;
  readonly log: HostLog;
}

type Loaded = { outcome: "loaded"; fit: number };

/** A load begun before the model step: its model path and how it ended (never rejects). */
export interface Preload {
  readonly modelPath: string;
  readonly result: Promise<Loaded | { outcome: "failed"; reason: string }>;
}

function fileName(modelPath: string): string {
  return modelPath.split(/[\\/]/).pop() ?? modelPath;
}

async function requestFacts(
  deps: ModelDeps,
  modelPath: string,
  threads: number,
  runtime: RuntimeRequest,
  signal?: AbortSignal,
): Promise<Loaded> {
  const facts = await deps.worker.request(modelFactsMethod, { modelPath, threads, ...runtime }, signal);
  deps.log.info(
    `model ${fileName(modelPath)}: ${facts.mode}, ${facts.bytesPerCell} bytes per ${facts.kvType} cell on ` +
      `${placementText(facts.placement)}; about ${facts.agentsThatFit} agents fit in ${facts.poolCells} cells ` +
      `(${facts.poolOrigin})`,
  );
  return { outcome: "loaded", fit: facts.agentsThatFit };
}

function failure(modelPath: string, err: unknown): { outcome: "failed"; reason: string } {
  const { code, message } = toErrorData(err);
  // Only a model file's own problem (model-not-found, model-corrupt, ...) points at swarmboard.modelPath; a
  // setting that asks for what cannot be (a memory budget too small, a GPU not there) says what to give itself.
  const reason = code.startsWith("model-")
    ? `Could not load the model ${modelPath}: ${message}. Check swarmboard.modelPath points at a GGUF file.`
    : `Could not load the model ${modelPath}: ${message}`;
  return { outcome: "failed", reason };
}

/** Starts loading the saved model while the person answers the first questions; the status bar shows it. */
export function preloadModel(deps: ModelDeps, modelPath: string, threads: number, runtime: RuntimeRequest): Preload {
  const result = Promise.resolve(
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `Swarmboard: loading ${fileName(modelPath)}` },
      () => requestFacts(deps, modelPath, threads, runtime),
    ),
  ).then(
    (loaded) => loaded,
    (err: unknown) => failure(modelPath, err),
  );
  return { modelPath, result };
}

/** Whether a preload has ended, without waiting for it. */
async function settledNow<T>(promise: Promise<T>): Promise<T | undefined> {
  const pending = Symbol("pending");
  const first = await Promise.race([
    promise,
    new Promise<typeof pending>((resolve) => setImmediate(() => resolve(pending))),
  ]);
  return first === pending ? undefined : (first as T);
}

/**
 * Loads the model in the worker (model/facts loads it once; the swarm reuses it). A preload of the same model that
 * succeeded is used as it is; one still running is waited for under a cancellable notification; one that failed is
 * tried again here, so its error is the one shown.
 */
export async function loadModel(
  deps: ModelDeps,
  modelPath: string,
  threads: number,
  runtime: RuntimeRequest,
  preload?: Preload,
): Promise<Loaded | LaunchResult> {
  const early = preload?.modelPath === modelPath ? preload.result : undefined;
  const done = early === undefined ? undefined : await settledNow(early);
  if (done?.outcome === "loaded") return done;
  const name = fileName(modelPath);
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Swarmboard: loading ${name}`, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      let cancel: (value: "cancelled") => void = () => undefined;
      const cancelled = new Promise<"cancelled">((resolve) => (cancel = resolve));
      const sub = token.onCancellationRequested(() => {
        controller.abort();
        cancel("cancelled");
      });
      try {
        if (early !== undefined && done === undefined) {
          progress.report({ message: "still loading: the worker maps the model once for all agents…" });
          const waited = await Promise.race([early, cancelled]);
          if (waited !== "cancelled" && waited.outcome === "loaded") return waited;
          if (waited === "cancelled") throw new Error("cancelled");
        }
        progress.report({ message: "the worker maps the model once for all agents…" });
        return await requestFacts(deps, modelPath, threads, runtime, controller.signal);
      } catch (err) {
        if (token.isCancellationRequested)
          return { outcome: "cancelled" as const, reason: `Loading ${name} was cancelled; nothing was launched.` };
        return failure(modelPath, err);
      } finally {
        sub.dispose();
      }
    },
  );
}
