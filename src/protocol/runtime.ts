// What the shared-prefix runtime reports across the worker boundary: its mode, the model's KV shape,
// the live cell budget and the results of a generation. The runtime (src/runtime) produces these values;
// the host and the webview only read them.
import { z } from "zod";

/**
 * "shared-cells": one unified KV pool, a fork only adds an owner to the trunk's cells (the patched build).
 * "copy-mode": each sequence has its own stream, a fork copies the trunk into it (a stock build).
 */
export const runtimeModeSchema = z.enum(["shared-cells", "copy-mode", "remote-engine"]);
export type RuntimeMode = z.infer<typeof runtimeModeSchema>;

/** How the panel, the sidebar, the status bar and the terminal name a mode. */
export function runtimeModeLabel(mode: string | undefined): string {
  if (mode === "copy-mode") return "copy mode";
  if (mode === "shared-cells") return "shared cells";
  return mode === "remote-engine" ? "remote engine" : "mode unknown";
}

/** The model facts that decide what one KV cell costs. */
export const modelFactsSchema = z.object({
  path: z.string(),
  architecture: z.string(),
  layers: z.number().int().positive(),
  /** Attention heads for queries. */
  heads: z.number().int().positive(),
  /** Heads that keys and values have (grouped-query attention shares them). */
  kvHeads: z.number().int().positive(),
  keyHeadDim: z.number().int().positive(),
  valueHeadDim: z.number().int().positive(),
  /** ggml type name of the K and V cache, e.g. "F16". */
  kvType: z.string(),
  /** Bytes one cell (one token of one layer stack) takes: layers x kvHeads x (keyDim + valueDim) x type size. */
  kvBytesPerCell: z.number().positive(),
  trainContextSize: z.number().int().positive(),
  vocabularySize: z.number().int().nonnegative(),
});
export type ModelFacts = z.infer<typeof modelFactsSchema>;

/** Where the model runs: `false` = the CPU; "auto" = the machine's GPU when a build for it loads, else the CPU. */
export const gpuChoiceSchema = z.enum(["auto", "cuda", "vulkan", "metal", "false"]);
export type GpuSetting = z.infer<typeof gpuChoiceSchema>;

/**
 * The KV cache's element type (llama.cpp's `--cache-type-k/-v`): f16 is llama.cpp's default; q8_0 halves a cell
 * at a small cost in precision; the 4/5-bit types quarter it. A quantised V cache needs flash attention, which the
 * runtime turns on for it.
 */
export const kvCacheTypeSchema = z.enum(["f16", "q8_0", "q5_1", "q5_0", "q4_1", "q4_0", "iq4_nl", "bf16", "f32"]);
export type KvCacheType = z.infer<typeof kvCacheTypeSchema>;

/** Where the model's layers and the KV cache live, read from the loaded runtime. */
export const kvPlacementSchema = z.object({
  /** "cpu", or the GPU backend the runtime loaded ("cuda", "vulkan", "metal"). */
  backend: z.string(),
  /** GPU device names the backend sees (empty on the CPU). */
  devices: z.array(z.string()),
  /** Model layers offloaded to the GPU, of `modelLayers`. */
  gpuLayers: z.number().int().nonnegative(),
  modelLayers: z.number().int().positive(),
  /** Where the KV cells are allocated: with their layers (VRAM when offloaded, RAM when not, split when some are). */
  kvOn: z.enum(["ram", "vram", "split"]),
  /** VRAM in use and in all, on the GPU backends (after the model and the pool were allocated). */
  vramUsedBytes: z.number().nonnegative().optional(),
  vramTotalBytes: z.number().nonnegative().optional(),
});
export type KvPlacement = z.infer<typeof kvPlacementSchema>;

export const agentCellsSchema = z.object({
  agentId: z.string(),
  /** Cells no other live sequence owns: freed when this agent is released. */
  privateCells: z.number().int().nonnegative(),
  /** Positions this agent's sequence holds in the cache (shared and private). */
  sequenceCells: z.number().int().nonnegative(),
  paused: z.boolean(),
});
export type AgentCells = z.infer<typeof agentCellsSchema>;

/** What a remote serving engine reports about the swarm's requests (src/runtime/remote). */
export const remoteEngineStatsSchema = z.object({
  url: z.string(),
  /** The engine's name for its model. */
  model: z.string(),
  requests: z.number().int().nonnegative(),
  /** Prompt tokens the engine found in its prefix cache, and those it computed. */
  cachedPromptTokens: z.number().int().nonnegative(),
  computedPromptTokens: z.number().int().nonnegative(),
  /** False when the engine does not report cached tokens: the two counts above are then unknown, not zero. */
  cacheReported: z.boolean(),
  /** Requests retried after a 429/503 or a lost connection. */
  retries: z.number().int().nonnegative(),
});
export type RemoteEngineStats = z.infer<typeof remoteEngineStatsSchema>;

/**
 * The worker's own memory beside the model's weights and the KV pool (src/runtime/local/workerMemory.ts): its resident set
 * less both is "the rest" (llama.cpp's compute and output buffers, node-llama-cpp's and our per-sequence state, the
 * samplers, Node's heap), split into a fixed part (measured with no agent live) and a part per live agent.
 */
export const workerMemorySchema = z.object({
  residentBytes: z.number().nonnegative(),
  /** The weights held in RAM: the model file, less the share of its layers offloaded to a GPU. */
  weightsBytes: z.number().nonnegative(),
  /** The KV pool held in RAM (none when its cells live in VRAM). */
  kvBytes: z.number().nonnegative(),
  /** Resident less weights and KV, now (at least 0). */
  restBytes: z.number().nonnegative(),
  /** The rest when no agent was live (the last time: before the first fork, between stages). */
  fixedRestBytes: z.number().nonnegative(),
  /** The rest above the fixed part per live agent, measured with the most agents live so far (absent before). */
  perAgentRestBytes: z.number().nonnegative().optional(),
  /** Agents live when the per-agent figure was measured. */
  measuredAgents: z.number().int().nonnegative().optional(),
  /** Memory the machine can still give (Linux MemAvailable). */
  availableBytes: z.number().nonnegative(),
  /** Agents whose rest fits in the available memory (after a safety share), at the per-agent figure. */
  moreAgentsByMemory: z.number().int().nonnegative().optional(),
});
export type WorkerMemory = z.infer<typeof workerMemorySchema>;

export const swarmStatsSchema = z.object({
  mode: runtimeModeSchema,
  /** Cells llama.cpp allocated for the whole context. */
  poolCells: z.number().int().nonnegative(),
  /** Most cells one sequence may hold (the pool in shared-cells mode, one stream in copy mode). */
  sequenceCellLimit: z.number().int().nonnegative(),
  trunkCells: z.number().int().nonnegative(),
  /** How many live agents own the trunk's cells (read the trunk through them). */
  trunkOwners: z.number().int().nonnegative(),
  agents: z.array(agentCellsSchema),
  usedCells: z.number().int().nonnegative(),
  freeCells: z.number().int().nonnegative(),
  /** Cells promised to agents at fork (their expected tails) and not yet used. */
  reservedCells: z.number().int().nonnegative(),
  bytesPerCell: z.number().nonnegative(),
  /** The KV cache's element type the pool was created with ("F16", "Q8_0", ...). */
  kvType: z.string().optional(),
  /** Where the model and the pool live (CPU/GPU, layers offloaded, VRAM used). */
  placement: kvPlacementSchema.optional(),
  /** Where the pool's size came from (a flag or setting, or free memory), in words. */
  poolOrigin: z.string().optional(),
  usedBytes: z.number().nonnegative(),
  poolBytes: z.number().nonnegative(),
  /** `llama_decode` calls this context has made. */
  dispatches: z.number().int().nonnegative(),
  /** Tokens (batch rows) those calls held. */
  dispatchedTokens: z.number().int().nonnegative(),
  rowsPerDispatch: z.number().nonnegative(),
  /** Dispatches made while agents were generating, and the wall time spent generating. */
  generationSteps: z.number().int().nonnegative(),
  meanStepMs: z.number().nonnegative(),
  generatedTokens: z.number().int().nonnegative(),
  tokensPerSecond: z.number().nonnegative(),
  /** A remote engine's own account of its prefix cache (absent for the local runtime). */
  engine: remoteEngineStatsSchema.optional(),
  /** The local worker's memory beyond weights and KV (absent for a remote engine, and from older workers). */
  memory: workerMemorySchema.optional(),
  /** This swarm's part of a pool it shares with other swarms (absent: the pool is its alone). */
  share: z
    .object({
      /** Swarms on the pool now, this one included. */
      swarms: z.number().int().positive(),
      /** The most cells this swarm may write and be promised (its cap at launch); absent: none beyond the pool. */
      capCells: z.number().int().nonnegative().optional(),
      /** Cells this swarm wrote (a trunk start forked from another swarm's is not counted) or has in flight. */
      usedCells: z.number().int().nonnegative(),
    })
    .optional(),
});
export type SwarmStats = z.infer<typeof swarmStatsSchema>;

export const stopReasonSchema = z.enum(["eos", "stop", "max-tokens", "kv-full", "aborted"]);
export type StopReason = z.infer<typeof stopReasonSchema>;

export const samplingSchema = z.object({
  /** 0 = greedy. */
  temperature: z.number().min(0).optional(),
  topK: z.number().int().nonnegative().optional(),
  topP: z.number().min(0).max(1).optional(),
  seed: z.number().int().nonnegative().optional(),
});
export type Sampling = z.infer<typeof samplingSchema>;

export const generateResultSchema = z.object({
  /** Every token the agent produced; all of them are now (or, the last one, will be) in its context. */
  tokens: z.array(z.number().int()),
  /** The decoded text, without the stop string that ended it. */
  text: z.string(),
  stopReason: stopReasonSchema,
  /** The stop string that matched, when stopReason is "stop". */
  stopString: z.string().optional(),
  /** What the sampler chose at each step; differs from `tokens` only where tokens were forced. */
  sampledTokens: z.array(z.number().int()),
});
export type GenerateResult = z.infer<typeof generateResultSchema>;

/** Sent when an agent's next token finds no free cell: the agent is paused, the others go on. */
export const kvFullEventSchema = z.object({
  code: z.literal("kv-full"),
  agentId: z.string(),
  /** Cells the agent needed and the cells it could have had. */
  neededCells: z.number().int().nonnegative(),
  availableCells: z.number().int().nonnegative(),
  message: z.string(),
});
export type KvFullEvent = z.infer<typeof kvFullEventSchema>;

/** A remote engine went away (the agents wait for it) or came back (they go on); nothing is lost either way. */
export const engineStateEventSchema = z.object({
  code: z.literal("engine-state"),
  state: z.enum(["unreachable", "back"]),
  url: z.string(),
  /** Agents waiting for the engine when it was found unreachable. */
  waitingAgents: z.array(z.string()),
  message: z.string(),
});
export type EngineStateEvent = z.infer<typeof engineStateEventSchema>;
