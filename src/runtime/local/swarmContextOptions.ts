// The local engine's context options turned into llama.cpp's (the options' shape is the port's,
// port/engineShapes.ts), and the pool facts the budget shows, apart from the context that does the work.
import type { LlamaContextOptions } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { KvPlacement } from "../../protocol/runtime";
import type { KvCellCost } from "../loadModel";
import type { EngineForkOptions } from "../port/engine";
import type { SwarmContextOptions } from "../port/engineShapes";
import { SwarmRuntimeError } from "../runtimeErrors";

/** What the budget shows about the pool beyond its cells: a cell's type and cost, where it lives, why its size. */
export interface PoolFacts {
  readonly cost: KvCellCost;
  readonly placement: KvPlacement;
  readonly poolOrigin?: string;
  /** How many swarms the pool was sized for (a fair share of it is the pool over at least that many). */
  readonly poolSwarms: number;
}

/**
 * Flash attention: on for a quantised cache (llama.cpp refuses a quantised V without it); off for attention heads
 * narrower than 16 values, where ggml's CPU kernel (one query row at a time, an exp per key) costs more than the
 * matrix products it replaces. Measured here decoding a 2,000-token trunk on one thread, with it against without:
 * head size 4 3.2x and 8 (stories260K) 4.3x slower, 16 1.8x and 64 (Qwen2.5-0.5B's shape) 1.4x faster. Otherwise
 * undefined: llama.cpp's own choice.
 */
export function flashAttentionFor(quantised: boolean, headSize: number): boolean | undefined {
  if (quantised) return true;
  return headSize < 16 ? false : undefined;
}

/** Cells promised to a new agent for its own tokens when neither the fork nor the options say. */
export const defaultExpectedTail = 64;

/** llama.cpp's most sequences in one context (LLAMA_MAX_SEQ in llama-cparams.h). */
export const llamaMaxSequences = 256;

/**
 * The context's sequences: maxAgents + 2 (agents, trunk, synthesist) for each swarm it may host, no more than
 * llama.cpp allows. A split cache divides its cells by the sequences, so it is never shared: one swarm.
 */
export function poolSequences(options: Pick<SwarmContextOptions, "maxAgents" | "swarms">, shared: boolean): number {
  const perSwarm = options.maxAgents + 2;
  const swarms = shared ? Math.max(1, options.swarms ?? 1) : 1;
  return Math.max(perSwarm, Math.min(perSwarm * swarms, llamaMaxSequences));
}

/** Refuses a context shape that cannot hold a swarm. */
export function checkContextOptions(options: SwarmContextOptions): void {
  if (!Number.isInteger(options.maxAgents) || options.maxAgents < 1) {
    throw new SwarmRuntimeError("invalid-request", `maxAgents must be a positive integer (got ${options.maxAgents}).`);
  }
  if (!Number.isInteger(options.kvCells) || options.kvCells < 1) {
    throw new SwarmRuntimeError("invalid-request", `kvCells must be a positive integer (got ${options.kvCells}).`);
  }
}

/** node-llama-cpp's options for the swarm's one context; `headSize` is the model's narrowest attention head. */
export function llamaContextOptions(
  options: SwarmContextOptions,
  shared: boolean,
  cost: KvCellCost,
  threads: number,
  headSize: number,
): LlamaContextOptions {
  const sequences = poolSequences(options, shared);
  const quantised = !["F32", "F16", "BF16"].includes(cost.typeName);
  // kvCellCost checked the name against ggml's KV types.
  const kvType = cost.typeName as NonNullable<LlamaContextOptions["experimentalKvCacheKeyType"]>;
  const flashAttention = flashAttentionFor(quantised, headSize);
  return {
    sequences,
    // In shared-cells mode `contextSize` is the whole pool (the patch); in copy mode it is one sequence's stream.
    contextSize: shared ? options.kvCells : Math.max(1, Math.floor(options.kvCells / sequences)),
    kvUnified: shared,
    threads: options.threads ?? threads,
    batchSize: options.batchSize ?? 512,
    failedCreationRemedy: false,
    ...(flashAttention === undefined ? {} : { flashAttention }),
    ...(options.kvCacheType === undefined
      ? {}
      : { experimentalKvCacheKeyType: kvType, experimentalKvCacheValueType: kvType }),
  };
}

export type ForkOptions = EngineForkOptions;
