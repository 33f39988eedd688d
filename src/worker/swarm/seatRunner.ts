// One seat's agent loop, wired to the swarm around it: its calls (room from the agent's share, the wall clock's
// deadline, its script in a scripted run), its guard, compaction, pauses, questions and sub-agents.
import { ProgressGuard } from "../../core/progressGuard";
import { callPreview } from "../../core/callPreview";
import type { EngineAgent } from "../../runtime/port/engine";
import type { AgentWorkspace } from "../../workspace/agentWorkspace";
import { AgentCalls } from "../agent/agentCalls";
import { compactionOnContext } from "../agent/agentCompaction";
import type { AgentPauses } from "../agent/agentPauses";
import type { AgentEventDraft } from "../agent/agentEventDraft";
import { AgentRunner } from "../agent/agentRunner";
import type { CellWord } from "../agent/agentRunnerDeps";
import type { AgentStops } from "../agent/agentStops";
import type { Delegation } from "../agent/backgroundSubagents";
import type { Seat } from "./seatPlan";
import type { AskUserOutcome } from "../agent/tools/toolContext";
import { scriptFor } from "./swarmRunOptions";
import type { SeatGround } from "./swarmRun";

/** What the seats need from the session around them. */
export interface SeatHooks {
  readonly emit: (event: AgentEventDraft) => void;
  /** Aborted when the whole swarm stops. */
  readonly signal: AbortSignal;
  /** Where each agent's own stop switch is kept (the user stops one agent by id). */
  readonly stops: AgentStops;
  readonly budgetAction: () => "continue" | "fanIn" | "stop";
  /** Milliseconds until an agent must stop (the synthesist runs to the end, the others to fan-in). */
  readonly timeLeftMs?: (isSynthesist: boolean) => number;
  /** The person's pause switch per agent. */
  readonly pauses?: AgentPauses;
  /** Asks the person a question for an agent (ask_user). */
  readonly askUser?: (agentId: string, question: string, signal: AbortSignal) => Promise<AskUserOutcome>;
}

/** One running agent. */
export interface Slot extends Seat {
  readonly agent: EngineAgent;
  readonly workspace: AgentWorkspace;
  /** 0 for the swarm's own agents, 1 and more for sub-agents. */
  readonly depth: number;
  readonly isSynthesist: boolean;
  readonly opening: "brief" | "call-result";
}

/** What the seat's runner takes from the seats around it. */
export interface SeatSurroundings {
  /** The agent that spawned this one (a sub-agent), whose stop also stops it. */
  readonly parent?: string;
  /** Resolves when another agent freed cells, or tells this one (holding `held()` cells) to give back its own. */
  readonly waitForCells: (held: () => number) => Promise<CellWord>;
  /** Tells paused agents that this one freed cells (it compacted). */
  readonly cellsFreed: () => void;
  /** Present when the seat may spawn sub-agents. */
  readonly delegation?: Delegation;
}

export function seatRunner(setup: SeatGround, hooks: SeatHooks, slot: Slot, around: SeatSurroundings): AgentRunner {
  const { options, context, board, format, tailBudget } = setup;
  const { parent } = around;
  const { id, agent, tools, isSynthesist } = slot;
  const { emit } = hooks;
  const signal = hooks.stops.signalFor(id, hooks.signal, parent);
  const script = scriptFor(options, id, isSynthesist);
  const privateCells = () => agent.tokens.length - context.trunkTokens.length;
  const calls = new AgentCalls(agent, format, tools, {
    // A call's room is what is left of the agent's share (no fixed cap); the runtime also checks admission.
    maxArgTokens: () => tailBudget - privateCells(),
    callDeadline: () => {
      const clock = hooks.budgetAction();
      const ended = clock === "stop" || (clock === "fanIn" && !isSynthesist);
      return ended ? "the wall-clock budget ran out" : undefined;
    },
    temperature: options.temperature ?? 0.7,
    seed: (options.seed ?? 1) + slot.number,
    ...(script ? { script } : {}),
    signal,
    thinking: {
      maxTokens: options.thinkingTokens ?? options.recipe.budgets.thinkingTokens ?? 0,
      onText: (text, tokens) => hooks.emit({ type: "agent-text", agentId: id, text, tokens }),
    },
    onCallProgress: (tool, argsSoFar, tokens) =>
      hooks.emit({ type: "call-progress", agentId: id, tool, preview: callPreview(tool, argsSoFar), tokens }),
  });
  const { pauses, askUser } = hooks;
  return new AgentRunner({
    id,
    isSynthesist,
    calls,
    board,
    tools,
    budgets: options.recipe.budgets,
    workspace: slot.workspace,
    web: setup.web,
    guard: new ProgressGuard({ noProgressSteps: 8, repeatLimit: 3 }),
    emit,
    now: () => Date.now(),
    signal,
    budgetAction: hooks.budgetAction,
    ...(hooks.timeLeftMs ? { timeLeftMs: () => hooks.timeLeftMs!(isSynthesist) } : {}),
    waitForCells: () => around.waitForCells(privateCells),
    privateCells,
    tailBudget,
    compaction: compactionOnContext({
      ...{ id, agent, context, board, calls, shareCells: tailBudget, privateCells, emit },
      released: around.cellsFreed,
    }),
    opening: slot.opening,
    ...(around.delegation ? { delegation: around.delegation } : {}),
    ...(pauses ? { pause: pauses.switchFor(id, signal) } : {}),
    ...(askUser ? { askUser: (question: string) => askUser(id, question, signal) } : {}),
  });
}
