// The budget of a swarm on a remote engine. The engine owns the cells, so what the worker can say for itself is
// logical: the trunk once plus each agent's private tail (what an engine with prefix caching holds at best),
// against the engine's context per request. What the engine says is added as it is: prompt tokens it found in its
// cache and prompt tokens it computed, or that it does not say (`cacheReported: false`), never a guess.
import type { SwarmStats } from "../../protocol/runtime";
import type { SwarmModel } from "../loadModel";

export class RemoteCounters {
  requests = 0;
  cachedPromptTokens = 0;
  computedPromptTokens = 0;
  cacheReported = false;
  generatedTokens = 0;
  generationMs = 0;

  /** Counts one request's prompt as the engine reported it (cached tokens only where it says them). */
  countPrompt(prompt: { readonly computed: number; readonly cached?: number | undefined }): void {
    this.computedPromptTokens += prompt.computed;
    if (prompt.cached !== undefined) {
      this.cachedPromptTokens += prompt.cached;
      this.cacheReported = true;
    }
  }

  countGeneration(tokens: number, ms: number): void {
    this.generatedTokens += tokens;
    this.generationMs += ms;
  }
}

export interface RemoteStatsInput {
  readonly model: SwarmModel;
  readonly url: string;
  readonly engineModel: string;
  readonly slotCells: number;
  readonly trunkTokens: number;
  readonly agents: ReadonlyArray<{ id: string; tokens: number; privateTokens: number; paused: boolean }>;
  readonly counters: RemoteCounters;
  readonly retries: number;
}

export function remoteSwarmStats(input: RemoteStatsInput): SwarmStats {
  const { counters, model } = input;
  const usedCells = input.trunkTokens + input.agents.reduce((sum, agent) => sum + agent.privateTokens, 0);
  const bytesPerCell = model.facts.kvBytesPerCell;
  return {
    mode: "remote-engine",
    poolCells: input.slotCells,
    sequenceCellLimit: input.slotCells,
    trunkCells: input.trunkTokens,
    trunkOwners: input.agents.length,
    agents: input.agents.map((agent) => ({
      agentId: agent.id,
      privateCells: agent.privateTokens,
      sequenceCells: agent.tokens,
      paused: agent.paused,
    })),
    usedCells,
    freeCells: Math.max(0, input.slotCells - usedCells),
    reservedCells: 0,
    bytesPerCell,
    kvType: model.facts.kvType,
    poolOrigin: `the engine's context per request at ${input.url}`,
    usedBytes: usedCells * bytesPerCell,
    poolBytes: input.slotCells * bytesPerCell,
    dispatches: counters.requests,
    dispatchedTokens: counters.computedPromptTokens + counters.generatedTokens,
    rowsPerDispatch: counters.requests === 0 ? 0 : counters.computedPromptTokens / counters.requests,
    generationSteps: counters.generatedTokens,
    meanStepMs: counters.generatedTokens === 0 ? 0 : counters.generationMs / counters.generatedTokens,
    generatedTokens: counters.generatedTokens,
    tokensPerSecond: counters.generationMs === 0 ? 0 : (1000 * counters.generatedTokens) / counters.generationMs,
    engine: {
      url: input.url,
      model: input.engineModel,
      requests: counters.requests,
      cachedPromptTokens: counters.cachedPromptTokens,
      computedPromptTokens: counters.computedPromptTokens,
      cacheReported: counters.cacheReported,
      retries: input.retries,
    },
  };
}
