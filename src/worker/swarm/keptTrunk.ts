// The last swarm's context is kept by the runtime's owner when the swarm ends (SwarmEngine.keepTrunk; the model
// stays loaded anyway): the next swarm on the same model, seats, threads, KV type and pool caps takes it and
// decodes only the part of its trunk that differs (SwarmEngine.openTrunk). One context is kept at a time; a swarm
// of another shape disposes it before it sizes its own pool, so the kept pool's memory counts as free again. This
// file says what a swarm's trunk shape is, and where its state is saved for a later worker.
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { SwarmModel, TrunkShape } from "../../runtime/port/engineShapes";
import type { SwarmRunOptions } from "./swarmRunOptions";

/** Where trunks are saved for a later worker: set SWARMBOARD_TRUNK_STATE_DIR to turn saving and restoring on. */
export const trunkStateDirVariable = "SWARMBOARD_TRUNK_STATE_DIR";

/** The state file of this shape's trunk (one per model, seats and KV type), or undefined when saving is off. */
export function trunkStateFile(shape: TrunkShape): string | undefined {
  const dir = process.env[trunkStateDirVariable];
  if (!dir) return undefined;
  mkdirSync(dir, { recursive: true });
  const key = JSON.stringify([shape.model.facts.path, shape.maxAgents, shape.kvCacheType ?? "default", shape.caps]);
  return path.join(dir, `trunk-${createHash("sha256").update(key).digest("hex").slice(0, 16)}.json`);
}

/** What a kept context must match to serve this swarm. */
export function trunkShape(options: SwarmRunOptions, model: SwarmModel, maxAgents: number): TrunkShape {
  return {
    model,
    maxAgents,
    threads: options.threads,
    kvCacheType: options.kvCacheType,
    caps: [options.kvCells, options.recipe.budgets.kvCells],
    ...(options.poolSwarms === undefined ? {} : { poolSwarms: options.poolSwarms }),
  };
}
