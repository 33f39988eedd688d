// A remote engine is checked when a swarm is asked for, before anything is recorded or started: the palette's
// launch and the CLI then get the engine's own error (unreachable, wrong model, no grammar, another vocabulary)
// instead of a swarm that fails in its setup. The checked engine is handed to the swarm's setup, which then does not
// open and check it again.
import type { EngineSettings } from "../protocol/engine";
import { openEngine } from "../runtime/engines";
import type { SwarmEngine } from "../runtime/port/engine";
import { processRuntime } from "./swarm/processRuntime";

/** An engine opened and checked when its swarm was asked for (the CLI reaches it through the worker layer). */
export type CheckedEngine = SwarmEngine;

/**
 * The remote engine, checked, when `engine` names one (undefined for the local engine, which the setup opens);
 * rejects with the engine's typed error when it cannot serve a swarm on `modelPath`'s vocabulary.
 */
export async function checkEngineReady(
  engine: EngineSettings | undefined,
  modelPath: string,
): Promise<SwarmEngine | undefined> {
  if (engine?.kind !== "remote") return undefined;
  return openEngine(engine, { modelPath, threads: 1 }, processRuntime);
}
