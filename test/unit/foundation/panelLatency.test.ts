// The panel's latency card (webview/requestLatency.ts) is sent one line per trigger source, from the same fold of
// the swarm's events (src/core/requestLatency.ts) that the CLI's watch prints.
import assert from "node:assert/strict";
import { emptySwarm, reduceSwarm } from "../../../src/core/swarmView";
import { projectSwarm } from "../../../src/host/panel/panelProjection";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";

describe("panel projection: latency per request", () => {
  it("sends a standing swarm's latency per request, one line per kind, and none before the router assigned", () => {
    const counts = { dropped: 0, direct: 0, router: 1 };
    const decision = { action: "assign" as const, task: "fix it" };
    const trigger = { id: "t1", source: "test-failure" as const, fingerprint: "t1", time: 0, text: "expected 3" };
    const events: SwarmEvent[] = [
      { swarmId: "s", time: 1_000, type: "trigger", trigger, route: { route: "router" }, counts },
      { swarmId: "s", time: 1_500, type: "trigger-decision", triggerId: "t1", by: "agent-1", decision },
      {
        swarmId: "s",
        time: 2_000,
        type: "trigger-decision",
        triggerId: "t1",
        by: "agent-2",
        decision,
        agentId: "agent-2",
      },
      { swarmId: "s", time: 8_000, type: "agent-state", agentId: "agent-2", state: "done" },
    ];
    const at = (n: number) => projectSwarm({ ...events.slice(0, n).reduce(reduceSwarm, emptySwarm("s", 0)) });
    assert.equal(at(1).latency, undefined, "a trigger the router has not assigned is no work yet");
    assert.deepEqual(at(2).latency, [{ kind: "test-failure", text: "test-failure: no result yet (0 landed, 1 open)" }]);
    assert.deepEqual(at(4).latency, [
      { kind: "test-failure", text: "test-failure: p50 7.0 s, p95 7.0 s (1 landed; dispatch p50 0.5 s)" },
    ]);
    assert.equal(projectSwarm(emptySwarm("s", 0)).latency, undefined, "none for a swarm that takes no triggers");
  });
});
