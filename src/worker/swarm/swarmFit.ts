// Whether a swarm fits before it starts: the shared context (charter, tools, roster, goal) rendered and
// tokenized with the model's own chat format, and the agents' room in the KV budget, all from the loaded model's
// facts, without creating the swarm's context. The CLI refuses a goal or an agent count that cannot fit, saying
// how many agents fit and what budget the goal needs.
import { plannedRoster } from "../../core/roster";
import { renderTrunkParts, type RosterEntry } from "../../core/trunkPrompt";
import type { KvPoolSize } from "../../core/kvPoolSize";
import type { Recipe } from "../../protocol/recipe";
import type { GpuSetting, KvPlacement } from "../../protocol/runtime";
import { AgentChatFormat, gpuChoiceOf } from "../../runtime/modelServices";
import { resolveKvPool, type KvPoolKnobs } from "./kvPool";
import { processRuntime } from "./processRuntime";
import { toolsForRole, unionOfTools } from "../agent/toolCatalog";

/** llama.cpp's LLAMA_MAX_SEQ (src/llama-cparams.h of the bundled release): sequences one context can hold. */
export const llamaMaxSequences = 256;
/** Sequences the swarm keeps beside its agents: the trunk, the synthesist and two for sub-agents. */
const sequencesBesideAgents = 4;
/** Room one agent needs to act at all: one tool call's arguments (the session's maxArgTokens). */
export const cellsPerAgentAtLeast = 256;

export interface SwarmFitInput extends KvPoolKnobs {
  readonly modelPath: string;
  readonly threads: number;
  readonly goal: string;
  readonly recipe: Recipe;
  /** Working agents asked for; default: the recipe's counts. */
  readonly agents?: number;
  readonly gpu?: GpuSetting;
}

export interface SwarmFit {
  readonly agents: number;
  readonly mode: "shared-cells" | "copy-mode";
  /**
   * Tokens of the shared context (the workspace summary comes on top) with the roster of `agents` when they fit,
   * else of `agentsThatFit` (at least one).
   */
  readonly trunkTokens: number;
  /** The most agents that fit, at once, in the budget and in one llama.cpp context. */
  readonly agentsThatFit: number;
  /** The pool the swarm gets here, and why that many cells. */
  readonly pool: KvPoolSize;
  /** ggml's name of the KV type ("F16", "Q8_0"). */
  readonly kvType: string;
  /** Where the model and its KV cells live. */
  readonly placement: KvPlacement;
}

/** The trunk's roster for `agents` working seats (the tasks are not known yet: the goal stands for them). */
function roster(recipe: Recipe, agents: number): RosterEntry[] {
  const working = recipe.roles.filter((r) => r.name !== recipe.synthesist);
  const synthesist = recipe.roles.find((r) => r.name === recipe.synthesist);
  if (working.length === 0) return [];
  const seats = Array.from({ length: agents }, (_, i) => ({
    id: `agent-${i + 1}`,
    role: working[i % working.length]!,
  }));
  return plannedRoster({ seats, tasks: [], ...(synthesist ? { synthesist } : {}) });
}

function fits(mode: SwarmFit["mode"], kvCells: number, trunk: number, agents: number): boolean {
  if (agents + sequencesBesideAgents > llamaMaxSequences) return false;
  if (mode === "shared-cells") return trunk + agents * cellsPerAgentAtLeast <= kvCells;
  // Copy mode: every sequence gets an equal stream that must hold the trunk and the agent's own room.
  return Math.floor(kvCells / (agents + sequencesBesideAgents)) >= trunk + cellsPerAgentAtLeast;
}

/** Measures the swarm against the budget. Loads the model (kept for the run), never the swarm's context. */
export async function measureSwarmFit(input: SwarmFitInput): Promise<SwarmFit> {
  const { recipe } = input;
  const model = await processRuntime.loadModel({
    modelPath: input.modelPath,
    threads: input.threads,
    gpu: gpuChoiceOf(input.gpu ?? "auto"),
  });
  const mode = (await model.supportsSharedCells()) ? "shared-cells" : "copy-mode";
  const tools = unionOfTools(recipe.roles.map((r) => toolsForRole(r, r.name === recipe.synthesist)));
  const working = recipe.roles.filter((r) => r.name !== recipe.synthesist);
  const agents = input.agents ?? working.reduce((sum, r) => sum + r.count, 0);
  const pool = await resolveKvPool(model, { ...input, sequences: agents + sequencesBesideAgents });
  const kvCells = pool.cells;
  const where = { pool, kvType: model.kvCellCost(input.kvCacheType).typeName, placement: await model.placement() };
  const trunkOf = async (n: number) => {
    const parts = renderTrunkParts({
      recipe,
      goal: input.goal,
      tools: [],
      roster: roster(recipe, n),
      workspaceSummary: "",
    });
    return (await AgentChatFormat.create(model, parts.repository, tools, `${parts.swarm}\n`)).trunkTokens.length;
  };
  // The roster grows with the agent count: search the largest count whose trunk and rooms fit.
  const askedTrunk = await trunkOf(Math.min(agents, llamaMaxSequences));
  if (fits(mode, kvCells, askedTrunk, agents))
    return { agents, mode, trunkTokens: askedTrunk, agentsThatFit: agents, ...where };
  let low = 0;
  let high = Math.min(agents, llamaMaxSequences - sequencesBesideAgents);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mode, kvCells, await trunkOf(mid), mid)) low = mid;
    else high = mid - 1;
  }
  return { agents, mode, trunkTokens: await trunkOf(Math.max(1, low)), agentsThatFit: low, ...where };
}
