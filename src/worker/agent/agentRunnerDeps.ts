// What an agent's loop is wired to (the model's calls, the board, the workspace, the web, the budgets, the
// watchdog, compaction and delegation): built for each seat (src/worker/swarm/seatRunner.ts), read by AgentRunner.
// It sits above the parts it names; none of them imports it, so each declares what it needs of the loop.
import type { ProgressGuard } from "../../core/progressGuard";
import type { SwarmBoard } from "../../core/swarmBoard";
import type { Budgets } from "../../protocol/recipe";
import type { AgentWorkspace } from "../../workspace/agentWorkspace";
import type { AgentCalls } from "./agentCalls";
import type { AgentCompaction } from "./agentCompaction";
import type { AgentEventDraft } from "./agentEventDraft";
import type { PauseSwitch } from "./agentPauses";
import type { Delegation } from "./backgroundSubagents";
import type { AskUserOutcome } from "./tools/toolContext";
import type { CatalogTool } from "./tools/toolDefinition";
import type { WebAccess } from "./web/webAccess";

/** What a paused agent is told by the swarm's cell waiters: cells were freed (try again), or it must give back its own. */
export type CellWord = "freed" | "give-back";

export interface AgentRunnerDeps {
  readonly id: string;
  readonly isSynthesist: boolean;
  readonly calls: AgentCalls;
  readonly board: SwarmBoard;
  readonly workspace?: AgentWorkspace;
  /** The swarm's way to the web, for fetch_url and web_search. */
  readonly web?: WebAccess;
  readonly tools: readonly CatalogTool[];
  readonly budgets: Budgets;
  /** The watchdog of this agent, wired to its claims and loop. */
  readonly guard: ProgressGuard;
  readonly emit: (event: AgentEventDraft) => void;
  readonly now: () => number;
  /** Aborted when the user stops the agent or the swarm. */
  readonly signal: AbortSignal;
  /** The wall clock's word: workers stop at "fanIn" so the synthesist can fan in; everyone stops at "stop". */
  readonly budgetAction: () => "continue" | "fanIn" | "stop";
  /** Milliseconds until this agent must stop (fan-in for workers, the end for the synthesist). */
  readonly timeLeftMs?: () => number;
  /** Resolves "freed" when cells were freed for a paused agent, "give-back" when none will be unless it frees its own. */
  readonly waitForCells: () => Promise<CellWord>;
  /** Cells the agent holds beyond what it shares (its brief, calls and results). */
  readonly privateCells: () => number;
  /** Most private cells the agent may use: its share of the pool. */
  readonly tailBudget: number;
  /**
   * Present when the agent compacts by re-fork when its tail reaches its share; without it the agent stops
   * there (its private cells count against its token budget).
   */
  readonly compaction?: AgentCompaction;
  /** Present for agents that may still fork sub-agents from their own state. */
  readonly delegation?: Delegation;
  /**
   * How the agent's context opens: a fresh fork of the trunk reads its brief as a user turn; a sub-agent,
   * forked in the middle of its parent's spawn call, reads its brief as that call's result.
   */
  readonly opening?: "brief" | "call-result";
  /** The person's pause switch for this agent (src/worker/agent/agentPauses.ts). */
  readonly pause?: PauseSwitch;
  /** Asks the person (ask_user); absent where nobody can be asked. */
  readonly askUser?: (question: string) => Promise<AskUserOutcome>;
}
