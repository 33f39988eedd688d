// The last swarm's context, kept by the worker when the swarm ends (the model stays loaded anyway): the next swarm
// on the same model, seats, threads, KV type and pool caps takes it and decodes only the part of its trunk that
// differs (EngineContext.replaceTrunk). One context is kept at a time; a swarm of another shape disposes it before
// it sizes its own pool, so the kept pool's memory counts as free again.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { KvCacheType } from "../../protocol/runtime";
import type { SwarmModel } from "../../runtime/loadModel";
import type { EngineContext } from "../../runtime/engine";
import type { SwarmRunOptions } from "./swarmRunOptions";

export interface TrunkShape {
  readonly model: SwarmModel;
  readonly maxAgents: number;
  readonly threads: number;
  readonly kvCacheType: KvCacheType | undefined;
  /** The launch's and the recipe's caps on the pool (undefined: sized from memory). */
  readonly caps: readonly (number | undefined)[];
}

let kept: { readonly context: EngineContext; readonly shape: TrunkShape } | undefined;

function sameShape(a: TrunkShape, b: TrunkShape): boolean {
  return (
    a.model === b.model &&
    a.maxAgents === b.maxAgents &&
    a.threads === b.threads &&
    a.kvCacheType === b.kvCacheType &&
    a.caps.length === b.caps.length &&
    a.caps.every((cap, i) => cap === b.caps[i])
  );
}

/** Keeps `context` for the next swarm (disposing the one kept before); one with live agents is disposed. */
export async function keepContext(context: EngineContext, shape: TrunkShape): Promise<void> {
  const previous = kept;
  kept = undefined;
  if (previous !== undefined && previous.context !== context) await previous.context.dispose();
  if (context.liveAgents.length > 0 || shape.model.model.disposed) {
    await context.dispose();
    return;
  }
  kept = { context, shape };
}

/** The kept context when it has this shape (it is handed over, no longer kept); otherwise it is disposed. */
export async function takeKeptContext(shape: TrunkShape): Promise<EngineContext | undefined> {
  const candidate = kept;
  kept = undefined;
  if (candidate === undefined) return undefined;
  if (sameShape(candidate.shape, shape) && !shape.model.model.disposed) return candidate.context;
  await candidate.context.dispose();
  return undefined;
}

/** Disposes the kept context, if any (the worker's shutdown, a test's clean-up). */
export async function dropKeptContext(): Promise<void> {
  const candidate = kept;
  kept = undefined;
  await candidate?.context.dispose();
}

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

/** A trunk saved by an earlier worker is restored when it checks out (src/runtime/trunkStateFile.ts); else decoded. */
export async function decodeOrRestore(
  context: EngineContext,
  shape: TrunkShape,
  tokens: EngineContext["trunkTokens"],
): Promise<void> {
  const file = trunkStateFile(shape);
  if (file !== undefined && existsSync(file)) {
    const restore = await context.restoreTrunk(file, tokens);
    if (restore.restored) return;
    process.stderr.write(`Swarmboard: ${restore.note}; decoding the trunk.\n`);
  }
  await context.appendToTrunk(tokens);
}

/** What a kept context must match to serve this swarm. */
export function trunkShape(options: SwarmRunOptions, model: SwarmModel, maxAgents: number): TrunkShape {
  return {
    model,
    maxAgents,
    threads: options.threads,
    kvCacheType: options.kvCacheType,
    caps: [options.kvCells, options.recipe.budgets.kvCells],
  };
}
