// The trunk: rendered once (charter, tools, roster, goal, workspace summary, agent rules, memories), written to the
// state dir as the one prompt every agent shares, and put on the engine. Locally it goes into the context kept
// from the last swarm (only what differs is decoded), a trunk restored from a state file, or a new context sized
// from memory; on a remote engine it is sent once so that the engine's prefix cache holds it.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { plannedRoster } from "../../core/roster";
import { renderTrunk } from "../../core/trunkPrompt";
import type { AgentRule } from "../../protocol/agentRules";
import type { Task } from "../../protocol/tasks";
import { AgentChatFormat } from "../../runtime/agentChatFormat";
import type { EngineContext } from "../../runtime/engine";
import type { SwarmEngine } from "../../runtime/engines";
import type { TrunkReuse } from "../../runtime/trunkReuse";
import { readAgentRules } from "../../workspace/agentRulesFiles";
import type { SwarmRepository } from "../../workspace/swarmRepository";
import { decodeOrRestore, takeKeptContext, trunkShape, type TrunkShape } from "./keptTrunk";
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
  if (engine.kind === "remote") {
    // The engine's prefix cache is the kept trunk: it is sent once, now, and every agent's request starts with it.
    const context = await engine.createContext({ maxAgents: shape.maxAgents, kvCells: 1 });
    await context.appendToTrunk(format.trunkTokens);
    return { context, format, rules, shape };
  }
  const kept = await takeKeptContext(shape);
  if (kept !== undefined) {
    try {
      const trunkReuse = await kept.replaceTrunk(format.trunkTokens);
      return { context: kept, format, rules, shape, trunkReuse };
    } catch (error) {
      await kept.dispose();
      throw error;
    }
  }
  const pool = await resolveKvPool(model, { ...options, sequences: shape.maxAgents + 2 });
  const context = await engine.createContext({
    maxAgents: shape.maxAgents,
    kvCells: pool.cells,
    threads: options.threads,
    poolOrigin: pool.origin,
    ...(options.kvCacheType ? { kvCacheType: options.kvCacheType } : {}),
  });
  try {
    await decodeOrRestore(context, shape, format.trunkTokens);
  } catch (error) {
    await context.dispose();
    throw error;
  }
  return { context, format, rules, shape };
}
