// The trigger stream of a standing swarm as the views show it: the fast path's counters, the router's decisions,
// and the newest triggers with where each went and who owns it. Folded by the swarm view's reducer (swarmView.ts).
import type { SwarmEvent } from "../protocol/swarmEvents";
import type { RouterDecision, TriggerCounts } from "../protocol/triggers";
import type { SwarmViewState } from "./swarmViewState";

/**
 * Where a trigger stands: waiting for the router (sent to it, not decided yet, or parked until its thread has an
 * owner), held by it (it comes back with the next batch), routed to an agent, dropped (by a rule or the router),
 * or answered (the router replied to the person).
 */
export type TriggerQueueState = "waiting" | "held" | "routed" | "dropped" | "replied";

/** One trigger as the views list it. */
export interface TriggerItem {
  readonly id: string;
  readonly time: number;
  readonly source: string;
  readonly what: string;
  readonly decision: string;
  readonly state: TriggerQueueState;
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
    state: r.route === "dropped" ? "dropped" : r.route === "direct" ? "routed" : "waiting",
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
    t.id === e.triggerId
      ? { ...t, decision: said, state: decidedState(e.decision.action), ...(e.agentId ? { owner: e.agentId } : {}) }
      : t,
  );
  return { ...s, triggers: { counts, decisions: (s.triggers?.decisions ?? 0) + decided, recent } };
}

function decidedState(action: RouterDecision["action"]): TriggerQueueState {
  switch (action) {
    case "assign":
    case "forward":
      return "routed";
    case "hold":
      return "held";
    case "drop":
      return "dropped";
    case "reply":
      return "replied";
  }
}

/** How many of the kept triggers stand where (the tree's and the panel's one-line summary). */
export function triggerQueueCounts(recent: readonly TriggerItem[]): Record<TriggerQueueState, number> {
  const counts: Record<TriggerQueueState, number> = { waiting: 0, held: 0, routed: 0, dropped: 0, replied: 0 };
  for (const t of recent) counts[t.state]++;
  return counts;
}

/** "3 arrived · 1 waiting for the router · 1 held · 1 routed · 1 dropped": the states with any trigger in them. */
export function triggerQueueLine(recent: readonly TriggerItem[]): string {
  const c = triggerQueueCounts(recent);
  const parts = [
    `${recent.length} arrived`,
    c.waiting > 0 ? `${c.waiting} waiting for the router` : "",
    c.held > 0 ? `${c.held} held` : "",
    c.routed > 0 ? `${c.routed} routed` : "",
    c.dropped > 0 ? `${c.dropped} dropped` : "",
    c.replied > 0 ? `${c.replied} answered` : "",
  ];
  return parts.filter((p) => p !== "").join(" · ");
}
