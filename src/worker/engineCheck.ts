// A remote engine is checked when a swarm is asked for, before anything is recorded or started: the palette's
// launch and the CLI then get the engine's own error (unreachable, wrong model, no grammar, another vocabulary)
// instead of a swarm that fails in its setup. The vocabulary load and the connection checks are cheap, and the
// swarm's own setup reuses the loaded vocabulary.
import type { EngineSettings } from "../protocol/engine";
import { openEngine } from "../runtime/engines";

/** Resolves when the engine can serve a swarm on `modelPath`'s vocabulary; rejects with its typed error if not. */
export async function checkEngineReady(engine: EngineSettings | undefined, modelPath: string): Promise<void> {
  if (engine?.kind !== "remote") return;
  await openEngine(engine, { modelPath, threads: 1 });
}
