// Latency per request of a standing swarm (src/core/requestLatency.ts): folded from the swarm's events, p50/p95
// per trigger source over the requests that landed, and the one line the watch and the panel show per kind.
import assert from "node:assert/strict";
import {
  kindLatencyText,
  latencyByKind,
  latencyDuration,
  percentile,
  withRequestEvent,
  type RequestLatencyState,
} from "../../../src/core/requestLatency";
import { emptySwarm, reduceSwarm } from "../../../src/core/swarmView";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";
import type { FastPathRoute, TriggerSource } from "../../../src/protocol/triggers";

const counts = { dropped: 0, direct: 0, router: 0 };
const trigger = (id: string, source: TriggerSource, time: number, route: FastPathRoute = { route: "router" }) =>
  ({
    swarmId: "s",
    time,
    type: "trigger",
    trigger: { id, source, fingerprint: id, time: 0, text: `trigger ${id}` },
    route,
    counts,
  }) satisfies SwarmEvent;
const assigned = (id: string, time: number, agentId?: string) =>
  ({
    swarmId: "s",
    time,
    type: "trigger-decision",
    triggerId: id,
    by: "router-1",
    decision: { action: "assign", task: `fix ${id}` },
    ...(agentId ? { agentId } : {}),
  }) satisfies SwarmEvent;
const ended = (agentId: string, time: number, state: "done" | "failed" | "act" = "done") =>
  ({ swarmId: "s", time, type: "agent-state", agentId, state }) satisfies SwarmEvent;

/** One request through all four stamps: arrives at `at`, dispatched +1 s, started +2 s, lands after `tookMs`. */
function request(id: string, source: TriggerSource, at: number, tookMs: number, agentId: string): SwarmEvent[] {
  return [
    trigger(id, source, at),
    assigned(id, at + 1_000),
    assigned(id, at + 2_000, agentId),
    ended(agentId, at + tookMs),
  ];
}

const fold = (events: SwarmEvent[]) =>
  events.reduce<RequestLatencyState | undefined>((s, e) => withRequestEvent(s, e), undefined);

describe("core: requestLatency", () => {
  it("takes nearest-rank percentiles", () => {
    const values = [5, 1, 4, 2, 3, 6, 7, 8, 9, 10];
    assert.equal(percentile(values, 50), 5);
    assert.equal(percentile(values, 95), 10);
    assert.equal(percentile([42], 95), 42);
    assert.equal(percentile([], 50), undefined);
  });

  it("stamps a router trigger's arrival, dispatch, start and result; ignores triggers that cannot become work", () => {
    const state = fold([
      trigger("t1", "diagnostic", 10_000),
      trigger("t2", "message", 10_500, { route: "dropped", rule: "noise", reason: "noise" }),
      trigger("t3", "message", 10_700, { route: "direct", agentId: "agent-2", thread: "t0" }),
      assigned("t1", 12_000),
      assigned("t1", 13_000, "agent-3"),
      ended("agent-3", 14_000, "act"),
      ended("agent-3", 20_000),
      ended("agent-3", 25_000),
    ]);
    assert.deepEqual(state?.requests, [
      {
        id: "t1",
        kind: "diagnostic",
        arrived: 10_000,
        dispatched: 12_000,
        started: 13_000,
        agentId: "agent-3",
        landed: 20_000,
      },
    ]);
  });

  it("gives p50/p95 per kind over landed requests, counting open ones apart", () => {
    const events = [
      ...[10, 20, 30, 40, 50, 60, 70, 80, 90, 100].flatMap((s, i) =>
        request(`d${i}`, "diagnostic", i * 1_000, s * 1_000, `agent-${i + 2}`),
      ),
      ...request("f1", "test-failure", 0, 5_000, "agent-20"),
      trigger("f2", "test-failure", 1_000),
      assigned("f2", 2_000),
      trigger("f3", "test-failure", 1_500),
    ];
    const [diagnostic, failure] = latencyByKind(fold(events)!.requests);
    assert.deepEqual(diagnostic, {
      kind: "diagnostic",
      landed: 10,
      open: 0,
      total: { p50Ms: 50_000, p95Ms: 100_000 },
      dispatch: { p50Ms: 1_000, p95Ms: 1_000 },
      start: { p50Ms: 1_000, p95Ms: 1_000 },
      work: { p50Ms: 48_000, p95Ms: 98_000 },
    });
    // f3 was sent to the router and not decided: not open work yet.
    assert.equal(failure?.landed, 1);
    assert.equal(failure?.open, 1);
    assert.equal(kindLatencyText(diagnostic!), "diagnostic: p50 50.0 s, p95 1.7 min (10 landed; dispatch p50 1.0 s)");
    assert.equal(
      kindLatencyText(failure!),
      "test-failure: p50 5.0 s, p95 5.0 s (1 landed, 1 open; dispatch p50 1.0 s)",
    );
  });

  it("says a kind has no result yet while all its work is open", () => {
    const [row] = latencyByKind(fold([trigger("t1", "todo-commit", 0), assigned("t1", 1)])!.requests);
    assert.equal(kindLatencyText(row!), "todo-commit: no result yet (0 landed, 1 open)");
  });

  it("writes durations in the seed's units", () => {
    assert.equal(latencyDuration(860), "0.9 s");
    assert.equal(latencyDuration(12_400), "12.4 s");
    assert.equal(latencyDuration(942_000), "15.7 min");
    assert.equal(latencyDuration(7_560_000), "2.1 h");
  });

  it("is folded by the swarm view every surface reads", () => {
    const events = request("t1", "diagnostic", 1_000, 9_000, "agent-2");
    const view = events.reduce(reduceSwarm, emptySwarm("s", 0));
    assert.deepEqual(latencyByKind(view.requests!.requests)[0]?.total, { p50Ms: 9_000, p95Ms: 9_000 });
    assert.equal(emptySwarm("s", 0).requests, undefined);
  });
});
