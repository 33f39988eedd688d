// The worker's memory beyond the model's weights and the KV pool, split and bounded (pure). The runtime samples
// its resident set (src/runtime/local/workerMemory.ts); the rest (resident less weights less KV) measured with no agent
// live is the fixed part (llama.cpp's compute and output buffers, Node, the board), and what it grows by per live
// agent is the per-agent part (a sequence's state in llama.cpp and node-llama-cpp, its sampler and grammar, its
// history and tool results in the JS heap). bench:memory measured 3.19 MiB per agent on Qwen2.5-0.5B's shape.
// The bound: the available memory (less a safety share) divided by the per-agent figure is how many more agents
// the machine can hold; the budget shows it beside the KV room, and the launch says when it is short.
import type { WorkerMemory } from "../protocol/runtime";
import { binaryUnitNames, scaleBytes } from "./byteUnits";

const MiB = 1024 * 1024;

/** Share of the available memory left to the rest of the machine (the editor, the page cache, other programs). */
export const memorySafetyShare = 0.25;

/**
 * The per-agent part before any agent has run in this worker: bench:memory's 3.19 MiB per agent (N = 1 to 32,
 * Qwen2.5-0.5B's shape and its 151,936-token vocabulary: the samplers' candidate arrays scale with the vocabulary),
 * rounded up.
 */
export const defaultRestPerAgentBytes = 4 * MiB;

/** One reading of the process: its resident set, what weights and KV hold of it, the free memory, live agents. */
export interface MemorySample {
  readonly residentBytes: number;
  readonly weightsBytes: number;
  readonly kvBytes: number;
  readonly availableBytes: number;
  readonly liveAgents: number;
}

/** What the split keeps between samples. */
export interface MemorySplitState {
  readonly fixedRestBytes?: number;
  readonly perAgent?: { readonly bytes: number; readonly agents: number };
}

/** Agents whose rest fits in `availableBytes` after the safety share, at `perAgentBytes` each. */
export function agentsByMemory(availableBytes: number, perAgentBytes: number): number {
  if (perAgentBytes <= 0) return Number.POSITIVE_INFINITY;
  return Math.max(0, Math.floor((availableBytes * (1 - memorySafetyShare)) / perAgentBytes));
}

/**
 * Folds one sample into the split: with no agent live it is the fixed part; with agents live, the growth above the
 * fixed part per agent, kept from the sample with the most agents (more agents average out the heap's noise; at
 * the same count the larger figure, so the bound errs on the safe side).
 */
export function splitWorkerMemory(
  state: MemorySplitState,
  sample: MemorySample,
): { state: MemorySplitState; memory: WorkerMemory } {
  const rest = Math.max(0, sample.residentBytes - sample.weightsBytes - sample.kvBytes);
  let next = state;
  if (sample.liveAgents === 0) next = { ...state, fixedRestBytes: rest };
  else if (state.fixedRestBytes !== undefined) {
    const bytes = Math.max(0, rest - state.fixedRestBytes) / sample.liveAgents;
    const was = state.perAgent;
    const better =
      was === undefined || sample.liveAgents > was.agents || (sample.liveAgents === was.agents && bytes > was.bytes);
    if (better) next = { ...state, perAgent: { bytes, agents: sample.liveAgents } };
  }
  const perAgent = next.perAgent;
  const room = perAgent === undefined ? undefined : agentsByMemory(sample.availableBytes, perAgent.bytes);
  const memory: WorkerMemory = {
    residentBytes: sample.residentBytes,
    weightsBytes: sample.weightsBytes,
    kvBytes: sample.kvBytes,
    restBytes: rest,
    fixedRestBytes: next.fixedRestBytes ?? rest,
    availableBytes: sample.availableBytes,
    ...(perAgent === undefined ? {} : { perAgentRestBytes: perAgent.bytes, measuredAgents: perAgent.agents }),
    ...(room === undefined || !Number.isFinite(room) ? {} : { moreAgentsByMemory: room }),
  };
  return { state: next, memory };
}

function size(n: number): string {
  const { value, unit } = scaleBytes(n);
  return `${unit === 0 ? value : value.toFixed(1)} ${binaryUnitNames[unit]}`;
}

/** The memory in words: "1.2 GiB resident = 531.0 MiB weights + 2.0 MiB KV + 700.0 MiB rest (fixed ... per agent)". */
export function describeWorkerMemory(m: WorkerMemory): string {
  const perAgent =
    m.perAgentRestBytes === undefined
      ? "per agent not measured yet"
      : `${size(m.perAgentRestBytes)} per agent, measured with ${m.measuredAgents} live`;
  const room =
    m.moreAgentsByMemory === undefined
      ? ""
      : `; ${size(m.availableBytes)} available holds the rest of ${m.moreAgentsByMemory} more agent(s)`;
  return (
    `${size(m.residentBytes)} resident = ${size(m.weightsBytes)} weights + ${size(m.kvBytes)} KV + ` +
    `${size(m.restBytes)} rest (${size(m.fixedRestBytes)} fixed, ${perAgent})${room}`
  );
}

/**
 * What the launch says when the rest would not leave room for the agents it plans (undefined when it does):
 * the measured per-agent figure when there is one, else bench:memory's.
 */
export function memoryRoomNote(m: WorkerMemory, plannedAgents: number): string | undefined {
  const perAgent = m.perAgentRestBytes ?? defaultRestPerAgentBytes;
  const fit = agentsByMemory(m.availableBytes, perAgent);
  if (fit >= plannedAgents) return undefined;
  const source = m.perAgentRestBytes === undefined ? "bench:memory's figure" : "measured in this worker";
  return (
    `Memory: the worker's rest beyond weights and KV takes ${size(perAgent)} per agent (${source}); ` +
    `${size(m.availableBytes)} available (keeping ${Math.round(memorySafetyShare * 100)}% aside) holds ${fit} ` +
    `agent(s), fewer than the ${plannedAgents} planned. Lower the agent count, or free memory (a smaller KV pool: ` +
    `--kv-cells / swarmboard.kvCellsBudget) before launching.`
  );
}
