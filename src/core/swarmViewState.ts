// The shape of the one view of a swarm (swarmView.ts folds events into it): the swarm, its agents and their
// lanes, the approvals and questions waiting for the person, the budget and the trigger stream.
import type { AgentRuleListing } from "../protocol/agentRules";
import type { BoardEntry } from "../protocol/board";
import type { ModelFacts, RuntimeMode, SwarmStats } from "../protocol/runtime";
import type { AgentState } from "../protocol/swarmEvents";
import type { RequestLatencyState } from "./requestLatency";
import type { TriggerStreamState } from "./triggerView";

export interface LaneItem {
  readonly time: number;
  readonly kind: "state" | "thought" | "call" | "result" | "finding" | "message";
  readonly text: string;
  readonly ok?: boolean;
}

export interface AgentView {
  readonly id: string;
  readonly role: string;
  readonly branch?: string;
  readonly state: AgentState;
  readonly claim?: string;
  readonly reason?: string;
  readonly tokens: number;
  /** How many times the agent was compacted by re-fork (its tail reached its share). */
  readonly compactions: number;
  /** The text of the agent's newest turn as it is written (its thought, then its call), for the lane. */
  readonly current: string;
  /** The newest turn got its result: the next text starts a new turn. */
  readonly turnEnded: boolean;
  /** The lane's timeline, newest last, capped. */
  readonly lane: readonly LaneItem[];
  /** The call being written now, until it is complete: its tool, preview and tokens (counted in `tokens`). */
  readonly writing?: { readonly tool: string; readonly preview: string; readonly tokens: number };
}

export interface ApprovalView {
  readonly requestId: string;
  readonly agentId: string;
  readonly command: string;
  readonly cwd: string;
  readonly reason: string;
  readonly time: number;
}

/** An agent's open ask_user question, until it is answered, times out or is withdrawn. */
export interface QuestionView {
  readonly questionId: string;
  readonly agentId: string;
  readonly question: string;
  readonly time: number;
  readonly timeoutMs: number;
}

export interface SwarmViewState {
  readonly id: string;
  readonly goal: string;
  readonly recipe: string;
  readonly status: "starting" | "running" | "completed" | "budget" | "stopped" | "failed";
  readonly startedAt: number;
  readonly endedAt?: number;
  readonly endReason?: string;
  readonly reportPath?: string;
  readonly mode?: RuntimeMode;
  readonly model?: ModelFacts;
  readonly integrationBranch?: string;
  readonly trunkTokens: number;
  /** The repository's agent-rules files in the trunk. */
  readonly rules?: readonly AgentRuleListing[];
  /** How agent commands run: in the sandbox, or why not (each then asks for approval). */
  readonly commands?: string;
  readonly agents: readonly AgentView[];
  readonly entries: readonly BoardEntry[];
  readonly stats?: SwarmStats;
  /** Compactions by re-fork over all agents, and the cells they released. */
  readonly compactions: number;
  readonly compactedCells: number;
  readonly approvals: readonly ApprovalView[];
  /** While a remote engine is unreachable: what the swarm waits for, in words. */
  readonly engineDown?: string;
  /** Open ask_user questions, oldest first. */
  readonly questions: readonly QuestionView[];
  /** A standing swarm's triggers: the fast path's counters, how many the router decided, the newest ones. */
  readonly triggers?: TriggerStreamState;
  /** A standing swarm's requests (triggers the router was sent) and when each was dispatched, started, landed. */
  readonly requests?: RequestLatencyState;
}

export function emptySwarm(id: string, time: number): SwarmViewState {
  return {
    id,
    goal: "",
    recipe: "",
    status: "starting",
    startedAt: time,
    trunkTokens: 0,
    agents: [],
    entries: [],
    compactions: 0,
    compactedCells: 0,
    approvals: [],
    questions: [],
  };
}
