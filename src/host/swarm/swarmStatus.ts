// The status words every surface shows for a swarm and its agents. The worker's outcomes (completed, budget,
// stopped, failed) come from the store's view; "interrupted" is the host's own: the worker died while the swarm
// ran, so nothing it had live is live any more.
import { notServed } from "../../core/standingService";
import type { AgentView, SwarmViewState } from "../../core/swarmView";
import type { PastSwarm } from "../../protocol/swarmHistoryRpc";
import type { UsageSample } from "../../protocol/webviewMessages";

/** What the repository's registry says of a swarm this window did not run (listed after a reload or restart). */
export type PastSwarmFacts = Pick<
  PastSwarm,
  "outcome" | "reason" | "branches" | "findings" | "launchedBy" | "stateDirExists"
>;

/** A swarm as the host holds it: the worker's view, plus why it was interrupted when its worker died. */
export interface HostSwarmView extends SwarmViewState {
  readonly interrupted?: string;
  /** Agents forked from another agent (their `agent-added` named a parent). */
  readonly subAgents?: readonly string[];
  /** KV cells in use and tokens/s at each kv-stats report (the panel's chart). */
  readonly usage?: readonly UsageSample[];
  /** Set for a swarm read back from the repository's history rather than run by this window's worker. */
  readonly past?: PastSwarmFacts;
  /** When its branches and worktrees were removed (Clean Up, here or from the CLI). */
  readonly cleanedUpAt?: number;
}

export type SwarmStatus = SwarmViewState["status"] | "interrupted" | "running elsewhere" | "not served";

const finishedAgentStates = new Set(["done", "failed"]);

export function isRunning(view: SwarmViewState): boolean {
  return view.status === "running" || view.status === "starting";
}

export function swarmStatus(view: HostSwarmView): SwarmStatus {
  if (view.past?.outcome === "running") return "running elsewhere";
  if (view.interrupted !== undefined) return "interrupted";
  // A standing swarm whose router ended runs on, but nothing turns its triggers into work.
  return notServed(view) !== undefined ? "not served" : view.status;
}

/** Whether Resume may be offered: it ended before its end (interrupted or stopped) and its branches are still there. */
export function isResumable(view: HostSwarmView): boolean {
  if (isRunning(view) || view.cleanedUpAt !== undefined || view.past?.outcome === "running") return false;
  return view.interrupted !== undefined || view.status === "stopped";
}

/** Whether Clean Up may be offered: nothing runs it (here or elsewhere) and it was not cleaned up already. */
export function isCleanable(view: HostSwarmView): boolean {
  return !isRunning(view) && view.past?.outcome !== "running" && view.cleanedUpAt === undefined;
}

/** An agent's state word; an agent that was live when its worker died is "interrupted", not still gathering. */
export function agentStatus(view: HostSwarmView, agent: AgentView): string {
  return view.interrupted !== undefined && !finishedAgentStates.has(agent.state) ? "interrupted" : agent.state;
}

/** "4 workers + 5 sub-agents + 1 synthesist": what the agent count is made of (the recipe asked for the workers). */
export function agentCount(view: HostSwarmView): string {
  const sub = new Set(view.subAgents ?? []);
  const synthesists = view.agents.filter((a) => a.role === "synthesist" && !sub.has(a.id)).length;
  const workers = view.agents.length - sub.size - synthesists;
  const parts = [`${workers} worker${workers === 1 ? "" : "s"}`];
  if (sub.size > 0) parts.push(`${sub.size} sub-agent${sub.size === 1 ? "" : "s"}`);
  if (synthesists > 0) parts.push(`${synthesists} synthesist`);
  return parts.join(" + ");
}

/** The view after its worker died: ended, with no live cells, lanes, approvals or questions left. */
export function interruptedView(view: SwarmViewState, reason: string, time: number): HostSwarmView {
  const { stats: _dropped, ...rest } = view;
  return {
    ...rest,
    status: "failed",
    endedAt: time,
    endReason: reason,
    approvals: [],
    questions: [],
    agents: view.agents.map((a) => ({ ...a, current: "" })),
    interrupted: reason,
  };
}
