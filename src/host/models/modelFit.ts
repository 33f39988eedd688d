// Whether a model and its KV pool fit in the memory the machine has free, and the facts line the user
// sees after picking a model. Pure: the caller reads os.freemem() and the worker's facts.
import { scaleBytes } from "../../core/byteUnits";
import { plannedTailCells, plannedTrunkCells } from "../../core/modelCatalogue";
import type { KvPlacement, ModelFacts } from "../../protocol/runtime";

export interface MemoryVerdict {
  readonly fits: boolean;
  readonly needBytes: number;
  readonly freeBytes: number;
  readonly text: string;
}

export function formatBytes(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  const { value, unit } = scaleBytes(bytes);
  return `${value >= 100 || unit === 0 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}

/** The weights are mapped whole and the pool is allocated up front, so both must fit in free memory. */
export function memoryVerdict(fileBytes: number, poolBytes: number, freeBytes: number): MemoryVerdict {
  const needBytes = fileBytes + poolBytes;
  const fits = needBytes <= freeBytes;
  const text = fits
    ? `needs about ${formatBytes(needBytes)} (model ${formatBytes(fileBytes)} + KV pool ${formatBytes(poolBytes)}); ${formatBytes(freeBytes)} free`
    : `needs about ${formatBytes(needBytes)} (model ${formatBytes(fileBytes)} + KV pool ${formatBytes(poolBytes)}) but only ${formatBytes(freeBytes)} is free: loading it may swap heavily or fail. Choose a smaller model or lower swarmboard.kvCellsBudget`;
  return { fits, needBytes, freeBytes, text };
}

export interface FactsSummary {
  readonly facts: ModelFacts;
  readonly mode: "shared-cells" | "copy-mode";
  readonly fileBytes: number;
  readonly agentsThatFit: number;
  readonly poolBytes: number;
  readonly poolCells: number;
  readonly poolOrigin: string;
  readonly kvType: string;
  readonly bytesPerCell: number;
  readonly placement: KvPlacement;
}

/** "16k" for 16,384 tokens, "900" under a thousand: a size a person reads at a glance. */
export function tokensText(tokens: number): string {
  return tokens >= 1024 ? `${Math.round(tokens / 1024)}k` : String(tokens);
}

/**
 * The one line a person reads first: how many agents, how much each has, how much memory. The counts are the
 * planning figures the agents-that-fit number is computed with (a shared start, then each agent's own tokens).
 */
export function plainFitLine(s: FactsSummary): string {
  const agents = `${s.agentsThatFit} agent${s.agentsThatFit === 1 ? "" : "s"}`;
  const each =
    s.mode === "shared-cells"
      ? `${tokensText(plannedTailCells)} tokens each after a ${tokensText(plannedTrunkCells)}-token shared start`
      : `${tokensText(plannedTrunkCells + plannedTailCells)} tokens each`;
  return `it fits ${agents} with ${each}; ${formatBytes(s.fileBytes + s.poolBytes)} of memory.`;
}

/** One line per fact, for the details and the log. */
export function factsLines(name: string, s: FactsSummary): string[] {
  const f = s.facts;
  return [
    `${name}: ${f.architecture}, ${formatBytes(s.fileBytes)} on disk`,
    // GGUF metadata carries no parameter count; the shapes that decide the KV cost are shown instead.
    `parameters: not in the file's metadata (${f.layers} layers, ${f.heads} heads, ${f.kvHeads} KV heads, vocabulary ${f.vocabularySize})`,
    `context length: ${f.trainContextSize} tokens`,
    `KV bytes per cell: ${formatBytes(s.bytesPerCell)} (${s.kvType})`,
    `runs on: ${placementText(s.placement)}`,
    `${s.agentsThatFit} agent(s) fit in ${s.poolCells} cells (${formatBytes(s.poolBytes)}, ${s.mode}): ${s.poolOrigin}`,
  ];
}

/** Where the model and the KV cells live, in one phrase ("cpu", "cuda (NVIDIA H200): 25/25 layers, KV in VRAM"). */
export function placementText(p: KvPlacement): string {
  if (p.backend === "cpu") return "the CPU (model and KV cells in RAM)";
  const devices = p.devices.length > 0 ? ` (${p.devices.join(", ")})` : "";
  const vram =
    p.vramUsedBytes === undefined
      ? ""
      : `, VRAM ${formatBytes(p.vramUsedBytes)} of ${formatBytes(p.vramTotalBytes ?? 0)}`;
  return `${p.backend}${devices}: ${p.gpuLayers}/${p.modelLayers} layers offloaded, KV cells in ${p.kvOn.toUpperCase()}${vram}`;
}
