// The swarm's KV pool size on this machine: the model's cost per cell at the chosen KV type, the free memory
// where the cells would live, and the caps the user set, put through the pure rule of src/core/kvPoolSize.ts.
import { poolGranularity, sizeKvPool, type KvPoolCap, type KvPoolSize } from "../../core/kvPoolSize";
import { memoryBudgetForm, parseMemoryBudget } from "../../protocol/settings";
import type { Recipe } from "../../protocol/recipe";
import type { KvCacheType } from "../../protocol/runtime";
import type { SwarmModel } from "../../runtime/port/engineShapes";

/** The launch's knobs of the pool, declared once for the fit check, the model facts and the swarm's setup. */
export interface KvPoolKnobs {
  /** The launch's own cap (--kv-cells, swarmboard.kvCellsBudget); absent or 0 = none. */
  readonly kvCells?: number;
  readonly kvCacheType?: KvCacheType;
  /** Most memory the pool's cells may take ("6GB": --memory-budget, swarmboard.memoryBudget); absent = none. */
  readonly memoryBudget?: string;
}

export interface KvPoolRequest extends KvPoolKnobs {
  readonly recipe: Recipe;
  /** Sequences of the context the pool is for. */
  readonly sequences: number;
}

/** How the launch's cap is named to the user (the CLI flag and the setting carry the same number). */
export const launchCapName = "--kv-cells / swarmboard.kvCellsBudget";
const budgetCapName = "the memory budget (--memory-budget / swarmboard.memoryBudget)";

export async function resolveKvPool(model: SwarmModel, request: KvPoolRequest): Promise<KvPoolSize> {
  const { bytesPerCell } = model.kvCellCost(request.kvCacheType);
  const memory = await model.freeKvMemory();
  const caps: KvPoolCap[] = [];
  if (request.kvCells) caps.push({ cells: request.kvCells, name: launchCapName });
  if (request.memoryBudget) caps.push(budgetCap(request.memoryBudget, bytesPerCell));
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

/** A memory budget too small for the smallest pool llama.cpp allocates: the launch's own input, not a failure. */
export class MemoryBudgetError extends Error {
  readonly code = "memory-budget-too-small";
  /** The person's input asks for what cannot be: the CLI exits 2 with this message (src/cli/swarmFitCheck.ts). */
  readonly badInput = true;
}

/** A size to give, rounded up to what the person would type. */
const sizeToGive = (bytes: number) =>
  bytes < 2 ** 20 ? `${Math.ceil(bytes / 2 ** 10)}KiB` : `${Math.ceil(bytes / 2 ** 20)}MiB`;

/** The budget as a cap in cells at this model's cost per cell; refused when it cannot hold the smallest pool. */
function budgetCap(budget: string, bytesPerCell: number): KvPoolCap {
  const bytes = parseMemoryBudget(budget);
  if (bytes === undefined) throw new MemoryBudgetError(`The memory budget "${budget}" is not ${memoryBudgetForm}.`);
  // Whole blocks, down: llama.cpp rounds a context up to its block, which would go past the budget.
  const cells = Math.floor(bytes / bytesPerCell / poolGranularity) * poolGranularity;
  const held = Math.floor(bytes / bytesPerCell);
  if (cells < poolGranularity)
    throw new MemoryBudgetError(
      `The memory budget of ${budget} holds ${held.toLocaleString("en-US")} KV cells of this model ` +
        `(${bytesPerCell.toLocaleString("en-US")} bytes per cell), below the smallest pool of ${poolGranularity}: ` +
        `give --memory-budget (swarmboard.memoryBudget) ${sizeToGive(poolGranularity * bytesPerCell)} or more, ` +
        "or leave it empty to size the pool from free memory.",
    );
  return { cells, name: `${budgetCapName} (${budget})` };
}
