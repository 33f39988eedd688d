// A past swarm as the store holds it: its recorded events (trace and board, read by the worker) folded by the
// same reducer as a live stream, then the registry's word on how it ended laid over them, since a swarm killed
// mid-run has no end in its trace and one run elsewhere may still be going.
import { emptySwarm, reduceSwarm } from "../../core/swarmView";
import type { PastSwarm } from "../../protocol/swarmHistoryRpc";
import type { SwarmEvent } from "../../protocol/swarmEvents";
import { interruptedView, type HostSwarmView } from "./swarmStatus";

/**
 * `servedHere`: the swarm runs in the worker this window is attached to (the shared worker, after a reload): it is
 * live, not past, and the events still to come continue it. `lastSeenRunning`: when the window that ran it last saw
 * it running, if that window said (a reload's record).
 */
export function pastSwarmView(
  past: PastSwarm,
  events: readonly SwarmEvent[],
  { servedHere = false, lastSeenRunning }: { servedHere?: boolean; lastSeenRunning?: number } = {},
): HostSwarmView {
  let view = { ...emptySwarm(past.swarmId, past.createdAt), goal: past.goal, recipe: past.recipe };
  for (const e of events) view = reduceSwarm(view, e);
  const facts = {
    outcome: past.outcome,
    reason: past.reason,
    branches: past.branches,
    findings: past.findings,
    launchedBy: past.launchedBy,
    stateDirExists: past.stateDirExists,
  };
  const cleaned = past.cleanedUpAt !== undefined ? { cleanedUpAt: past.cleanedUpAt } : {};
  const { stats: _notLive, ...rest } = view;
  const noStats = { ...rest, goal: past.goal || view.goal, recipe: past.recipe || view.recipe, approvals: [] };
  switch (past.outcome) {
    case "interrupted":
      return {
        ...interruptedView(
          noStats,
          past.reason,
          past.endedAt ?? view.endedAt ?? Math.max(lastSign(past, events), lastSeenRunning ?? 0),
        ),
        past: facts,
        ...cleaned,
      };
    case "running":
      // Live in the worker this window follows: its open approval requests are still waiting for an answer, and
      // this window shows them again (a reload: the window that showed them is gone).
      if (servedHere) {
        const status = view.status === "starting" ? "starting" : "running";
        return { ...noStats, approvals: view.approvals, status, ...cleaned };
      }
      // Another process runs it: nothing of it is live in this window, so it is shown as not running here.
      return { ...noStats, status: "stopped", endReason: past.reason, past: facts, ...cleaned };
    default:
      return {
        ...noStats,
        status: past.outcome,
        endReason: past.reason || view.endReason,
        ...(past.endedAt !== undefined ? { endedAt: past.endedAt } : {}),
        ...(past.reportPath !== undefined ? { reportPath: past.reportPath } : {}),
        past: facts,
        ...cleaned,
      };
  }
}

/**
 * When a swarm whose owner died (a reload, a closed window, a crash) was last seen working: its newest recorded event.
 * Its record has no end, and its start is no answer: the panel and the tree would say it ran "0s".
 */
function lastSign(past: PastSwarm, events: readonly SwarmEvent[]): number {
  return events.reduce((latest, e) => Math.max(latest, e.time), past.createdAt);
}
