// Stopping one agent of a running swarm: its own signal aborts, its sub-agents' (at any depth) with it, and the
// rest of the swarm goes on.
import assert from "node:assert/strict";
import { AgentStops } from "../../../src/worker/agent/agentStops";

describe("stopping one agent", () => {
  it("stops the agent and its sub-agents at every depth, and no one else", () => {
    const stops = new AgentStops();
    const swarm = new AbortController().signal;
    const parent = stops.signalFor("agent-1", swarm);
    const other = stops.signalFor("agent-2", swarm);
    const child = stops.signalFor("agent-3", swarm, "agent-1");
    const grandchild = stops.signalFor("agent-4", swarm, "agent-3");
    const otherChild = stops.signalFor("agent-5", swarm, "agent-2");
    assert.equal(stops.stop("agent-1"), true);
    assert.deepEqual(
      [parent, child, grandchild, other, otherChild].map((s) => s.aborted),
      [true, true, true, false, false],
    );
  });

  it("starts a sub-agent of a stopped parent already stopped", () => {
    const stops = new AgentStops();
    const swarm = new AbortController().signal;
    stops.signalFor("agent-1", swarm);
    stops.stop("agent-1");
    assert.equal(stops.signalFor("agent-2", swarm, "agent-1").aborted, true);
  });

  it("stops everyone when the swarm stops, and says when an agent never ran", () => {
    const stops = new AgentStops();
    const swarm = new AbortController();
    const signals = ["agent-1", "agent-2"].map((id) => stops.signalFor(id, swarm.signal));
    assert.equal(stops.stop("agent-9"), false);
    assert.deepEqual(
      signals.map((s) => s.aborted),
      [false, false],
    );
    swarm.abort();
    assert.deepEqual(
      signals.map((s) => s.aborted),
      [true, true],
    );
  });
});
