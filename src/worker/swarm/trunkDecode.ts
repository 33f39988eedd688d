// The trunk: rendered once (charter, tools, workspace summary, agent rules, roster, goal, open work, memories, in
// that order: core/trunkPrompt.ts renderTrunk says why), written to the state dir as the one prompt every agent
// shares, and put on the engine (SwarmEngine.openTrunk: locally a live pool's trunk it forks the shared start of,
// the context kept from the last swarm, a trunk restored from a state file, or a new context sized from memory by
// resolveKvPool; on a remote engine it is sent once so that the engine's prefix cache holds it).
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { plannedRoster } from "../../core/roster";
import { joinTrunk, renderTrunkParts } from "../../core/trunkPrompt";
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
  /** The repository's part of the trunk (workspaceTasks.ts workspaceSummary): the same for every swarm on it. */
  readonly summary: string;
  /** This swarm's open tasks and board (workspaceTasks.ts openWorkSummary). */
  readonly openWork: string;
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

/** Renders the trunk and decodes it once into a new context (or forks the start it shares with a live one). */
export async function decodeTrunk(input: TrunkInput): Promise<DecodedTrunk> {
  const { options, repo, engine, plan, tasks, summary, openWork, memory } = input;
  const roster = plannedRoster({
    seats: plan.stages.flat(),
    tasks,
    ...(plan.synthesist ? { synthesist: plan.synthesist.role } : {}),
  });
  const rules = options.agentRules === false ? [] : await readAgentRules(repo.topLevel);
  const parts = renderTrunkParts({
    recipe: options.recipe,
    goal: options.goal,
    tools: [],
    roster,
    workspaceSummary: summary,
    openWork,
    rules,
    memory,
  });
  // What every agent was told, kept with the run (the trunk is the one prompt all agents share).
  await writeFile(path.join(options.stateDir, "trunk.txt"), joinTrunk(parts));
  const { model } = engine;
  // The repository's part is the system text; the swarm's opens the user turn after the tool docs, a blank line
  // before each agent's brief (the start a second swarm on the repository forks: core/trunkPrompt.ts).
  const format = await AgentChatFormat.create(model, parts.repository, plan.tools, `${parts.swarm}\n`);
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
