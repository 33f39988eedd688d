// A short curated list of instruct models with native tool calling that node-llama-cpp renders in their own syntax,
// offered by Select Model and `swarmboard model pull`. Pure data and arithmetic: the KV cost of one cell follows
// from the architecture (every layer keeps a key and a value of kvHeads x headDim numbers per token), so the list
// can say how many agents fit before anything is downloaded.
import { binaryUnitNames, scaleBytes } from "./byteUnits";

export interface CatalogueModel {
  /** Short name accepted by `swarmboard model pull <id>`. */
  readonly id: string;
  readonly label: string;
  /** node-llama-cpp's model URI (`hf:<user>/<repo>:<quant>`). */
  readonly uri: string;
  /** Size of the quantised file, as the repository lists it (approximate: repositories re-upload). */
  readonly downloadBytes: number;
  /** Architecture, from the model's config.json: what the KV cache holds per token. */
  readonly layers: number;
  readonly kvHeads: number;
  readonly headDim: number;
  /** Tool-call syntax the model was trained on, as its chat template renders it. */
  readonly toolSyntax: string;
  readonly note: string;
}

/** Repositories list sizes in decimal gigabytes. */
const gb = (n: number) => Math.round(n * 1e9);

export const modelCatalogue: readonly CatalogueModel[] = [
  {
    id: "qwen2.5-1.5b",
    label: "Qwen2.5-1.5B-Instruct",
    uri: "hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M",
    downloadBytes: gb(1.12),
    layers: 28,
    kvHeads: 2,
    headDim: 128,
    toolSyntax: "<tool_call> JSON",
    note: "recommended: small, cheap KV, runs on a laptop CPU",
  },
  {
    id: "qwen2.5-coder-1.5b",
    label: "Qwen2.5-Coder-1.5B-Instruct",
    uri: "hf:Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF:Q4_K_M",
    downloadBytes: gb(1.12),
    layers: 28,
    kvHeads: 2,
    headDim: 128,
    toolSyntax: "<tool_call> JSON",
    note: "code-tuned, same cost as Qwen2.5-1.5B",
  },
  {
    id: "qwen2.5-coder-7b",
    label: "Qwen2.5-Coder-7B-Instruct",
    uri: "hf:bartowski/Qwen2.5-Coder-7B-Instruct-GGUF:Q4_K_M",
    downloadBytes: gb(4.68),
    layers: 28,
    kvHeads: 4,
    headDim: 128,
    toolSyntax: "<tool_call> JSON",
    note: "stronger coder; wants a GPU or a patient CPU",
  },
  {
    id: "qwen3-4b",
    label: "Qwen3-4B",
    uri: "hf:Qwen/Qwen3-4B-GGUF:Q4_K_M",
    downloadBytes: gb(2.5),
    layers: 36,
    kvHeads: 8,
    headDim: 128,
    toolSyntax: "<tool_call> JSON, <think> reasoning",
    note: "thinks before it acts; KV costs 5x Qwen2.5-1.5B's",
  },
  {
    id: "qwen3-8b",
    label: "Qwen3-8B",
    uri: "hf:Qwen/Qwen3-8B-GGUF:Q4_K_M",
    downloadBytes: gb(5.03),
    layers: 36,
    kvHeads: 8,
    headDim: 128,
    toolSyntax: "<tool_call> JSON, <think> reasoning",
    note: "the strongest here; wants a GPU",
  },
  {
    id: "llama3.2-3b",
    label: "Llama-3.2-3B-Instruct",
    uri: "hf:bartowski/Llama-3.2-3B-Instruct-GGUF:Q4_K_M",
    downloadBytes: gb(2.02),
    layers: 28,
    kvHeads: 8,
    headDim: 128,
    toolSyntax: '{"name", "parameters"} JSON, results in an ipython turn',
    note: "Meta's small instruct model",
  },
];

/** Bytes of one KV cell at F16: a key and a value (2) of kvHeads x headDim numbers of 2 bytes, in every layer. */
export function kvBytesPerCell(model: Pick<CatalogueModel, "layers" | "kvHeads" | "headDim">): number {
  return model.layers * model.kvHeads * model.headDim * 2 * 2;
}

/**
 * The rule of thumb every "how many agents fit" shown before a swarm uses: a shared context of 2,048 cells and a
 * private tail of 1,024 cells per agent (shared cells), or each agent holding its own copy of the context (copy mode).
 */
export const plannedTrunkCells = 2048;
export const plannedTailCells = 1024;

export function agentsThatFitCells(kvCells: number, mode: "shared-cells" | "copy-mode"): number {
  return mode === "shared-cells"
    ? Math.max(0, Math.floor((kvCells - plannedTrunkCells) / plannedTailCells))
    : Math.max(0, Math.floor(kvCells / (plannedTrunkCells + plannedTailCells)));
}

export interface CatalogueFit {
  /** Bytes of the KV pool at the budget (or at what memory allows, when that is less). */
  readonly poolBytes: number;
  readonly agentsThatFit: number;
  /** What limits the agents: the cell budget, or the free memory left beside the weights. */
  readonly limitedBy: "budget" | "memory";
}

/** How many agents a catalogue model fits in `kvCells` cells, and in free memory beside its weights when known. */
export function catalogueFit(
  model: CatalogueModel,
  kvCells: number,
  mode: "shared-cells" | "copy-mode",
  freeBytes?: number,
): CatalogueFit {
  const perCell = kvBytesPerCell(model);
  const memoryCells =
    freeBytes === undefined ? Infinity : Math.max(0, Math.floor((freeBytes - model.downloadBytes) / perCell));
  const cells = Math.min(kvCells, memoryCells);
  return {
    poolBytes: cells * perCell,
    agentsThatFit: agentsThatFitCells(cells, mode),
    limitedBy: memoryCells < kvCells ? "memory" : "budget",
  };
}

/** A catalogue model by its id or its exact URI (case-insensitive), or undefined. */
export function findCatalogueModel(name: string): CatalogueModel | undefined {
  const key = name.trim().toLowerCase();
  return modelCatalogue.find((m) => m.id === key || m.uri.toLowerCase() === key);
}

export function formatSize(bytes: number): string {
  const { value, unit } = scaleBytes(bytes);
  const units = binaryUnitNames;
  return `${value >= 100 || unit === 0 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}

/** One line per model: what `model pull --list` prints and what Select Model's items say. */
export function catalogueLine(model: CatalogueModel, kvCells: number, mode: "shared-cells" | "copy-mode"): string {
  const fit = catalogueFit(model, kvCells, mode);
  return (
    `${formatSize(model.downloadBytes)} download, ${formatSize(kvBytesPerCell(model))} KV per cell, ` +
    `${fit.agentsThatFit} agents in ${kvCells.toLocaleString("en-US")} cells (${formatSize(fit.poolBytes)})`
  );
}
