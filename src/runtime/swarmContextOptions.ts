// The options of a swarm context and of one fork, and llama.cpp's view of a sequence beside the ledger's:
// the shapes callers pass in and read back, apart from the context that does the work.
import type { LlamaContextOptions } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { KvCacheType, KvPlacement } from "../protocol/runtime";
import type { KvCellCost } from "./loadModel";
import { SwarmRuntimeError } from "./runtimeErrors";
import type { AgentRole, EngineAgent, EngineForkOptions } from "./engine";

export interface SwarmContextOptions {
  /** Most agents alive at once (the trunk and one synthesist come on top). */
  maxAgents: number;
  /** KV cells for the whole swarm; llama.cpp rounds up to a multiple of 256 (read `poolCells`). */
  kvCells: number;
  /** CPU threads for decoding (1 or 2 on a small machine). Defaults to the model's. */
  threads?: number;
  /** Ask for the unified pool (default true); it is granted only by the patched build. */
  unified?: boolean;
  /** Most tokens in one `llama_decode` (default 512). */
  batchSize?: number;
  /** Cells promised to each new agent for its own tokens when no `expectedTail` is given (default 64). */
  defaultExpectedTail?: number;
  /** The KV cache's element type (default: the model's, F16); a quantised one turns flash attention on. */
  kvCacheType?: KvCacheType;
  /** Where `kvCells` came from, in words (shown with the budget). */
  poolOrigin?: string;
}

/** What the budget shows about the pool beyond its cells: a cell's type and cost, where it lives, why its size. */
export interface PoolFacts {
  readonly cost: KvCellCost;
  readonly placement: KvPlacement;
  readonly poolOrigin?: string;
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
  const sequences = options.maxAgents + 2;
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

/** llama.cpp's own view of one sequence next to the ledger's. */
export interface SequencePositionCheck {
  id: string;
  ledgerCells: number;
  llamaMinPosition: number;
  llamaMaxPosition: number;
}

/** Refuses a fork whose id is taken or whose role has no seat left (maxAgents agents, one synthesist). */
export function checkSeat(seat: {
  id: string;
  role: AgentRole;
  trunkId: string;
  maxAgents: number;
  live: readonly EngineAgent[];
}): void {
  const { id, role } = seat;
  if (id === seat.trunkId || seat.live.some((agent) => agent.id === id))
    throw new SwarmRuntimeError("invalid-request", `An agent named ${id} is already live; fork under another id.`);
  const taken = seat.live.filter((agent) => agent.role === role).length;
  const seats = role === "synthesist" ? 1 : seat.maxAgents;
  if (taken >= seats) {
    throw new SwarmRuntimeError(
      "no-sequence-left",
      `All ${seats} ${role} seat(s) are taken; release one before forking, or raise swarmboard.maxAgents.`,
    );
  }
}
