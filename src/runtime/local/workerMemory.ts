// Samples the worker's own memory for the budget: the resident set of this process, what of it the model's weights
// and the KV pool hold, and what the machine can still give; the split into fixed and per-agent parts is the pure
// rule of src/core/workerMemory.ts. Weights and KV count only where they sit in RAM (a GPU's share is in VRAM).
import { statSync } from "node:fs";
import { availableMemoryBytes } from "../availableMemory";
import { splitWorkerMemory, type MemorySplitState } from "../../core/workerMemory";
import type { KvPlacement, WorkerMemory } from "../../protocol/runtime";

/** The share of the layers (and their KV cells) that stays in RAM. */
function ramShare(placement: KvPlacement): number {
  return 1 - Math.min(placement.gpuLayers, placement.modelLayers) / placement.modelLayers;
}

export interface WorkerMemorySources {
  readonly residentBytes: () => number;
  readonly availableBytes: () => number;
}

const processSources: WorkerMemorySources = {
  residentBytes: () => process.memoryUsage.rss(),
  availableBytes: availableMemoryBytes,
};

export class WorkerMemoryMeter {
  private state: MemorySplitState = {};
  private readonly weightsBytes: number;
  private readonly kvBytes: number;

  constructor(
    modelPath: string,
    placement: KvPlacement,
    poolBytes: number,
    private readonly sources: WorkerMemorySources = processSources,
  ) {
    const share = ramShare(placement);
    this.weightsBytes = statSync(modelPath).size * share;
    this.kvBytes = placement.kvOn === "vram" ? 0 : placement.kvOn === "ram" ? poolBytes : poolBytes * share;
  }

  /** One reading with `liveAgents` agents live (0: the fixed part is measured now). */
  read(liveAgents: number): WorkerMemory {
    const { state, memory } = splitWorkerMemory(this.state, {
      residentBytes: this.sources.residentBytes(),
      weightsBytes: this.weightsBytes,
      kvBytes: this.kvBytes,
      availableBytes: this.sources.availableBytes(),
      liveAgents,
    });
    this.state = state;
    return memory;
  }
}
