// Latency per request of a standing swarm: for every trigger that became work (the router assigned it a worker),
// when it arrived (the inbox took it), was dispatched (the router's assign), its worker started and its result
// landed (the worker ended, done or failed, after its merge if it merged). Folded from the swarm's events, so the
// CLI's watch and the panel read the same numbers; p50/p95 per trigger source, as the harness seed measures them.
import type { SwarmEvent } from "../protocol/swarmEvents";

/** One trigger the router was sent, with the times it reached so far (ms since the epoch). */
export interface RequestTiming {
  readonly id: string;
  /** The trigger's source ("diagnostic", "test-failure", ...): latencies are compared per kind. */
  readonly kind: string;
  readonly arrived: number;
  readonly dispatched?: number;
  readonly started?: number;
  readonly agentId?: string;
  readonly landed?: number;
}

export interface RequestLatencyState {
  /** Oldest first; past `requestsKept` the oldest go (a standing swarm runs for a day). */
  readonly requests: readonly RequestTiming[];
}

const requestsKept = 2_000;

function changed(
  s: RequestLatencyState,
  match: (r: RequestTiming) => boolean,
  change: (r: RequestTiming) => RequestTiming,
): RequestLatencyState {
  let any = false;
  const requests = s.requests.map((r) => {
    if (!match(r)) return r;
    any = true;
    return change(r);
  });
  return any ? { requests } : s;
}

/** The state after one event; the same object when the event changes nothing (most events). */
export function withRequestEvent(s: RequestLatencyState | undefined, e: SwarmEvent): RequestLatencyState | undefined {
  switch (e.type) {
    case "trigger": {
      // Only the router's triggers can become work: those the fast path dropped or sent to an owner are not requests.
      if (e.route.route !== "router") return s;
      const request = { id: e.trigger.id, kind: e.trigger.source, arrived: e.time };
      return { requests: [...(s?.requests ?? []), request].slice(-requestsKept) };
    }
    case "trigger-decision": {
      if (s === undefined || e.decision.action !== "assign") return s;
      // An assignment is told twice: decided (no agentId), then taken by its worker as it starts.
      const { agentId } = e;
      const open = (r: RequestTiming) => r.id === e.triggerId;
      return agentId === undefined
        ? changed(
            s,
            (r) => open(r) && r.dispatched === undefined,
            (r) => ({ ...r, dispatched: e.time }),
          )
        : changed(
            s,
            (r) => open(r) && r.started === undefined,
            (r) => ({ ...r, started: e.time, agentId }),
          );
    }
    case "agent-state":
      if (s === undefined || (e.state !== "done" && e.state !== "failed")) return s;
      return changed(
        s,
        (r) => r.agentId === e.agentId && r.landed === undefined,
        (r) => ({ ...r, landed: e.time }),
      );
    default:
      return s;
  }
}

/** Nearest-rank percentile (`p` in 0..100) of values in any order; undefined for none. */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1];
}

export interface Spread {
  readonly p50Ms: number;
  readonly p95Ms: number;
}

/** The requests of one kind: how many landed, how many are still open, and the spread of each stretch. */
export interface KindLatency {
  readonly kind: string;
  readonly landed: number;
  /** Sent to the router and assigned, not landed yet (those dropped, held or replied to are not counted). */
  readonly open: number;
  /** Arrival to result: what the person waits. */
  readonly total?: Spread;
  /** Arrival to the router's assign. */
  readonly dispatch?: Spread;
  /** Assign to the worker's start (waiting for a seat, the fork). */
  readonly start?: Spread;
  /** The worker's start to its result. */
  readonly work?: Spread;
}

function spread(values: number[]): Spread | undefined {
  const p50Ms = percentile(values, 50);
  const p95Ms = percentile(values, 95);
  return p50Ms === undefined || p95Ms === undefined ? undefined : { p50Ms, p95Ms };
}

/** p50/p95 per kind over the requests that landed, kinds in the order their first request arrived. */
export function latencyByKind(requests: readonly RequestTiming[]): KindLatency[] {
  const kinds = [...new Set(requests.map((r) => r.kind))];
  return kinds.flatMap((kind) => {
    const ofKind = requests.filter((r) => r.kind === kind);
    const landed = ofKind.filter(
      (r) => r.landed !== undefined && r.dispatched !== undefined && r.started !== undefined,
    );
    const open = ofKind.filter((r) => r.dispatched !== undefined && r.landed === undefined).length;
    if (landed.length === 0 && open === 0) return [];
    const stretch = (from: (r: RequestTiming) => number, to: (r: RequestTiming) => number) =>
      spread(landed.map((r) => to(r) - from(r)));
    const row: KindLatency = {
      kind,
      landed: landed.length,
      open,
      ...optional(
        "total",
        stretch(
          (r) => r.arrived,
          (r) => r.landed!,
        ),
      ),
      ...optional(
        "dispatch",
        stretch(
          (r) => r.arrived,
          (r) => r.dispatched!,
        ),
      ),
      ...optional(
        "start",
        stretch(
          (r) => r.dispatched!,
          (r) => r.started!,
        ),
      ),
      ...optional(
        "work",
        stretch(
          (r) => r.started!,
          (r) => r.landed!,
        ),
      ),
    };
    return [row];
  });
}

function optional<K extends string>(key: K, value: Spread | undefined): Partial<Record<K, Spread>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, Spread>);
}

/** 860 -> "0.9 s", 12_400 -> "12.4 s", 942_000 -> "15.7 min", 7_560_000 -> "2.1 h". */
export function latencyDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

/** One kind as one line, e.g. "diagnostic: p50 12.4 s, p95 15.7 s (3 landed, 1 open; dispatch p50 2.0 s)". */
export function kindLatencyText(k: KindLatency): string {
  const counts = `${k.landed} landed${k.open > 0 ? `, ${k.open} open` : ""}`;
  if (k.total === undefined) return `${k.kind}: no result yet (${counts})`;
  const dispatch = k.dispatch ? `; dispatch p50 ${latencyDuration(k.dispatch.p50Ms)}` : "";
  return `${k.kind}: p50 ${latencyDuration(k.total.p50Ms)}, p95 ${latencyDuration(k.total.p95Ms)} (${counts}${dispatch})`;
}
