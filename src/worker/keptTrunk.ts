// The last swarm's context, kept by the worker when the swarm ends (the model stays loaded anyway): the next swarm
// on the same model, seats, threads, KV type and pool caps takes it and decodes only the part of its trunk that
// differs (SwarmContext.replaceTrunk). One context is kept at a time; a swarm of another shape disposes it before
// it sizes its own pool, so the kept pool's memory counts as free again.
import type { KvCacheType } from "../protocol/runtime";
import type { SwarmModel } from "../runtime/loadModel";
import type { SwarmContext } from "../runtime/swarmContext";

export interface TrunkShape {
  readonly model: SwarmModel;
  readonly maxAgents: number;
  readonly threads: number;
  readonly kvCacheType: KvCacheType | undefined;
  /** The launch's and the recipe's caps on the pool (undefined: sized from memory). */
  readonly caps: readonly (number | undefined)[];
}

let kept: { readonly context: SwarmContext; readonly shape: TrunkShape } | undefined;

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
export async function keepContext(context: SwarmContext, shape: TrunkShape): Promise<void> {
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
export async function takeKeptContext(shape: TrunkShape): Promise<SwarmContext | undefined> {
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
