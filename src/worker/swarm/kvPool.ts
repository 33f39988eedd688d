// The swarm's KV pool size on this machine: the model's cost per cell at the chosen KV type, the free memory
// where the cells would live, and the caps the user set, put through the pure rule of src/core/kvPoolSize.ts.
import { sizeKvPool, type KvPoolCap, type KvPoolSize } from "../../core/kvPoolSize";
import type { Recipe } from "../../protocol/recipe";
import type { KvCacheType } from "../../protocol/runtime";
import type { SwarmModel } from "../../runtime/loadModel";

/** The launch's knobs of the pool, declared once for the fit check, the model facts and the swarm's setup. */
export interface KvPoolKnobs {
  /** The launch's own cap (--kv-cells, swarmboard.kvCellsBudget); absent or 0 = none. */
  readonly kvCells?: number;
  readonly kvCacheType?: KvCacheType;
}

export interface KvPoolRequest extends KvPoolKnobs {
  readonly recipe: Recipe;
  /** Sequences of the context the pool is for. */
  readonly sequences: number;
}

/** How the launch's cap is named to the user (the CLI flag and the setting carry the same number). */
export const launchCapName = "--kv-cells / swarmboard.kvCellsBudget";

export async function resolveKvPool(model: SwarmModel, request: KvPoolRequest): Promise<KvPoolSize> {
  const { bytesPerCell } = model.kvCellCost(request.kvCacheType);
  const memory = await model.freeKvMemory();
  const caps: KvPoolCap[] = [];
  if (request.kvCells) caps.push({ cells: request.kvCells, name: launchCapName });
  const recipeCells = request.recipe.budgets.kvCells;
  if (recipeCells !== undefined)
    caps.push({ cells: recipeCells, name: `the recipe's budgets.kvCells (${request.recipe.name})` });
  return sizeKvPool({
    bytesPerCell,
    freeBytes: memory.freeBytes,
    where: memory.where,
    sequences: request.sequences,
    tokensPerSequence: request.recipe.budgets.tokensPerAgent,
    caps,
  });
}
