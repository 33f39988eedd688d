// The trigger stream of a standing swarm as the views show it: the fast path's counters, the router's decisions,
// and the newest triggers with where each went and who owns it. Folded by the swarm view's reducer (swarmView.ts).
import type { SwarmEvent } from "../protocol/swarmEvents";
import type { TriggerCounts } from "../protocol/triggers";
import type { SwarmViewState } from "./swarmViewState";

/** One trigger as the views list it. */
export interface TriggerItem {
  readonly id: string;
  readonly time: number;
  readonly source: string;
  readonly what: string;
  readonly decision: string;
  readonly owner?: string;
}

export interface TriggerStreamState {
  readonly counts: TriggerCounts;
  readonly decisions: number;
  readonly recent: readonly TriggerItem[];
}

/** Triggers the view keeps (the counters count them all). */
const triggersKept = 200;

export function withTrigger(s: SwarmViewState, e: Extract<SwarmEvent, { type: "trigger" }>): SwarmViewState {
  const t = e.trigger;
  const where = t.path === undefined ? undefined : `${t.path}${t.line === undefined ? "" : `:${t.line}`}`;
  const r = e.route;
  const item: TriggerItem = {
    id: t.id,
    time: t.time,
    source: t.source,
    what: where ?? t.test ?? t.text.replace(/\s+/g, " ").slice(0, 80),
    decision:
      r.route === "dropped"
        ? `dropped: ${r.rule}`
        : r.route === "direct"
          ? `to ${r.agentId}`
          : r.route === "parked"
            ? `waits for ${r.thread}`
            : "router",
    ...(r.route === "direct" ? { owner: r.agentId } : {}),
  };
  const recent = [...(s.triggers?.recent ?? []), item].slice(-triggersKept);
  return { ...s, triggers: { counts: e.counts, decisions: s.triggers?.decisions ?? 0, recent } };
}

export function withDecision(s: SwarmViewState, e: Extract<SwarmEvent, { type: "trigger-decision" }>): SwarmViewState {
  const counts = s.triggers?.counts ?? { dropped: 0, direct: 0, router: 0 };
  // An assignment is told twice: decided, then taken by its worker (agentId set); it counts once.
  const decided = e.agentId === undefined ? 1 : 0;
  const said = e.agentId !== undefined ? `owned by ${e.agentId}` : `router: ${e.decision.action}`;
  const recent = (s.triggers?.recent ?? []).map((t) =>
    t.id === e.triggerId ? { ...t, decision: said, ...(e.agentId ? { owner: e.agentId } : {}) } : t,
  );
  return { ...s, triggers: { counts, decisions: (s.triggers?.decisions ?? 0) + decided, recent } };
}
