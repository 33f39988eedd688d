// What a tool may use while it runs (one agent's place in the swarm), and what the agent's delegates answer: a
// sub-agent's outcome, the person's answer to ask_user. A leaf of the tools: the parts that provide these (the
// seats, the questions, background sub-agents) import it, so no tool imports them.
import type { SwarmBoard } from "../../../core/swarmBoard";
import type { AgentWorkspace } from "../../../workspace/agentWorkspace";
import type { WebAccess } from "../web/webAccess";

export interface SubagentOutcome {
  readonly agentId: string;
  readonly summary: string;
  readonly findings: ReadonlyArray<{ kind: string; text: string }>;
  /** Started in the background (spawn_subagent with wait false): its outcome comes later. */
  readonly running?: boolean;
}

/** What the agent reads back from ask_user. */
export type AskUserOutcome =
  | { readonly answered: true; readonly questionId: string; readonly answer: string }
  | { readonly answered: false; readonly questionId: string; readonly note: string };

/** What a tool may use while it runs: one agent's place in the swarm. */
export interface ToolContext {
  readonly agent: string;
  readonly board: SwarmBoard;
  /** Absent for an agent whose role has no worktree. */
  readonly workspace?: AgentWorkspace;
  readonly now: () => number;
  readonly signal?: AbortSignal;
  /** The swarm's way to the web (fetch_url, web_search); absent where the swarm has none. */
  readonly web?: WebAccess;
  /**
   * Runs a sub-agent forked from this agent's current state, waiting for its outcome or (wait false) leaving it
   * in the background; absent where the depth limit is reached.
   */
  readonly spawnSubagent?: (task: string, wait: boolean) => Promise<SubagentOutcome>;
  /** Waits for this agent's background sub-agents and returns the outcomes not yet read. */
  readonly collectSubagents?: () => Promise<SubagentOutcome[]>;
  /** Asks the person a question and waits for the answer or the timeout (ask_user); absent where nobody can. */
  readonly askUser?: (question: string) => Promise<AskUserOutcome>;
}
