// How many KV cells a swarm's pool gets. Without a number from the user it is what the free memory where the cache
// lives (RAM, or VRAM when the layers are offloaded) can hold at the model's cost per cell, keeping a share of that
// memory back for what else grows with a swarm (compute buffers, the agents' worktrees' processes, the rest of the
// machine); never more than every sequence of the context could use (each at most the recipe's tokens per agent);
// and never more than a cap the user set (--kv-cells, swarmboard.kvCellsBudget, the recipe's kvCells). The result
// names the limit that decided it, so the launch and the budget can say where the number came from.
import { binaryUnitNames, scaleBytes } from "./byteUnits";

/** llama.cpp allocates a context in multiples of 256 cells. */
export const poolGranularity = 256;
/** The share of the free memory the pool may take when nothing else limits it. */
export const defaultMemoryShare = 0.5;

export interface KvPoolCap {
  readonly cells: number;
  /** Who set it, as the user knows it ("--kv-cells", "swarmboard.kvCellsBudget", "the recipe's kvCells"). */
  readonly name: string;
}

export interface KvPoolInput {
  /** What one cell costs at the pool's KV type. */
  readonly bytesPerCell: number;
  /** Free memory where the cells would be allocated. */
  readonly freeBytes: number;
  readonly where: "RAM" | "VRAM";
  /** Sequences of the context (the agents, the trunk, the synthesist). */
  readonly sequences: number;
  /** Most tokens one sequence may come to hold (the recipe's tokens per agent). */
  readonly tokensPerSequence: number;
  /** Caps the user set; the smallest wins when it is below what memory allows. */
  readonly caps: readonly KvPoolCap[];
  /** Share of the free memory the pool may take (default 0.5). */
  readonly memoryShare?: number;
}

export interface KvPoolSize {
  readonly cells: number;
  /** What decided the number, in words (shown at launch and with the budget). */
  readonly origin: string;
  /** The cells the memory share alone would allow. */
  readonly memoryCells: number;
}

const count = (n: number) => Math.floor(n).toLocaleString("en-US");

function bytesText(bytes: number): string {
  const { value, unit } = scaleBytes(bytes);
  const units = binaryUnitNames;
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

function roundDown(cells: number): number {
  return Math.max(poolGranularity, Math.floor(cells / poolGranularity) * poolGranularity);
}

function checkInput(input: KvPoolInput): void {
  if (!(input.bytesPerCell > 0)) throw new Error(`bytesPerCell must be positive (got ${input.bytesPerCell})`);
  if (!(input.freeBytes >= 0)) throw new Error(`freeBytes must be zero or more (got ${input.freeBytes})`);
  const share = input.memoryShare ?? defaultMemoryShare;
  if (!(share > 0 && share <= 1)) throw new Error(`memoryShare must be in (0, 1] (got ${share})`);
  for (const cap of input.caps)
    if (!Number.isInteger(cap.cells) || cap.cells < 1)
      throw new Error(`${cap.name} must be a positive whole number of cells (got ${cap.cells})`);
}

export function sizeKvPool(input: KvPoolInput): KvPoolSize {
  checkInput(input);
  const share = input.memoryShare ?? defaultMemoryShare;
  const memoryCells = Math.floor((input.freeBytes * share) / input.bytesPerCell);
  const memoryText =
    `${Math.round(share * 100)}% of ${bytesText(input.freeBytes)} free ${input.where} at ` +
    `${bytesText(input.bytesPerCell)} per cell (${count(memoryCells)} cells)`;
  const usable = input.sequences * input.tokensPerSequence;
  const cap = input.caps.reduce<KvPoolCap | undefined>(
    (low, c) => (low === undefined || c.cells < low.cells ? c : low),
    undefined,
  );
  if (cap !== undefined && cap.cells <= memoryCells)
    return {
      cells: cap.cells,
      origin: `${count(cap.cells)} cells set by ${cap.name}; memory allows ${memoryText}`,
      memoryCells,
    };
  if (cap !== undefined)
    return {
      cells: roundDown(memoryCells),
      origin:
        `${count(roundDown(memoryCells))} cells from free memory, below the ${count(cap.cells)} set by ${cap.name}: ` +
        memoryText,
      memoryCells,
    };
  if (usable < memoryCells)
    return {
      cells: roundDown(usable),
      origin:
        `${count(roundDown(usable))} cells: all ${input.sequences} sequences at ${count(input.tokensPerSequence)} ` +
        `tokens each (memory allows ${memoryText})`,
      memoryCells,
    };
  const smallest = memoryCells < poolGranularity ? `, raised to the smallest pool (${poolGranularity})` : "";
  return {
    cells: roundDown(memoryCells),
    origin: `${count(roundDown(memoryCells))} cells from ${memoryText}${smallest}`,
    memoryCells,
  };
}
