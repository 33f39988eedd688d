// The trunk: rendered once (charter, tools, roster, goal, workspace summary, agent rules, memories), written to the
// state dir as the one prompt every agent shares, and put on the engine (SwarmEngine.openTrunk: locally the context
// kept from the last swarm, a trunk restored from a state file, or a new context sized from memory by resolveKvPool;
// on a remote engine it is sent once so that the engine's prefix cache holds it).
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { plannedRoster } from "../../core/roster";
import { renderTrunk } from "../../core/trunkPrompt";
import { poolSizingSequences } from "../../core/poolShares";
import type { AgentRule } from "../../protocol/agentRules";
import type { Task } from "../../protocol/tasks";
import { AgentChatFormat } from "../../runtime/modelServices";
import type { EngineContext, SwarmEngine } from "../../runtime/port/engine";
import type { TrunkReuse, TrunkShape } from "../../runtime/port/engineShapes";
import { readAgentRules } from "../../workspace/agentRulesFiles";
import type { SwarmRepository } from "../../workspace/swarmRepository";
import { trunkShape, trunkStateFile } from "./keptTrunk";
import { resolveKvPool } from "./kvPool";
import type { SeatPlan } from "./seatPlan";
import type { SwarmRunOptions } from "./swarmRunOptions";

export interface TrunkInput {
  readonly options: SwarmRunOptions;
  readonly repo: SwarmRepository;
  readonly engine: SwarmEngine;
  readonly plan: SeatPlan;
  readonly tasks: readonly Task[];
  readonly summary: string;
  /** The memories section (empty when none is carried). */
  readonly memory: string;
}

export interface DecodedTrunk {
  context: EngineContext;
  format: AgentChatFormat;
  rules: AgentRule[];
  shape: TrunkShape;
  trunkReuse?: TrunkReuse;
}

/** Renders the trunk (charter, tools, roster, goal, workspace) and decodes it once into a new context. */
export async function decodeTrunk(input: TrunkInput): Promise<DecodedTrunk> {
  const { options, repo, engine, plan, tasks, summary, memory } = input;
  const roster = plannedRoster({
    seats: plan.stages.flat(),
    tasks,
    ...(plan.synthesist ? { synthesist: plan.synthesist.role } : {}),
  });
  const rules = options.agentRules === false ? [] : await readAgentRules(repo.topLevel);
  const trunkText = renderTrunk({
    recipe: options.recipe,
    goal: options.goal,
    tools: [],
    roster,
    workspaceSummary: summary,
    rules,
    memory,
  });
  // What every agent was told, kept with the run (the trunk is the one prompt all agents share).
  await writeFile(path.join(options.stateDir, "trunk.txt"), trunkText);
  const { model } = engine;
  const format = await AgentChatFormat.create(model, trunkText, plan.tools);
  const shape = trunkShape(options, model, plan.widestStage + plan.subagentSeats);
  // A pool sized for several swarms counts each one's sequences (core/poolShares.ts); memory and caps still bound it.
  const { poolShareCells: cellCap, poolSwarms } = options;
  const sequences = poolSizingSequences(shape.maxAgents + 2, poolSwarms);
  const sizePool = async () => {
    const size = await resolveKvPool(model, { ...options, sequences });
    return poolSwarms && poolSwarms > 1 ? { ...size, origin: `${size.origin}; sized for ${poolSwarms} swarms` } : size;
  };
  const request = {
    shape,
    stateFile: trunkStateFile(shape),
    swarmId: options.swarmId,
    ...(cellCap ? { cellCap } : {}),
    ...(poolSwarms ? { poolSwarms } : {}),
  };
  const { context, trunkReuse } = await engine.openTrunk(format.trunkTokens, request, sizePool);
  return { context, format, rules, shape, ...(trunkReuse ? { trunkReuse } : {}) };
}
