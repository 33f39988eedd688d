// How long a past swarm ran, as the tree and the panel show it (endedAt - startedAt). A swarm whose window was
// reloaded has no end in its record or its trace; it was shown as "0s" although it had worked for 40 s.
import assert from "node:assert/strict";
import { pastSwarmView } from "../../../src/host/swarm/pastSwarmView";
import type { PastSwarm } from "../../../src/protocol/swarmHistoryRpc";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";

const created = 1_700_000_000_000;

function past(outcome: PastSwarm["outcome"], endedAt?: number): PastSwarm {
  return {
    swarmId: "s1",
    goal: "Make the failing tests pass",
    recipe: "fix-failing-tests",
    outcome,
    reason: "its process (pid 42) ended before the swarm did; resume it or clean it up",
    launchedBy: "vscode",
    createdAt: created,
    ...(endedAt !== undefined ? { endedAt } : {}),
    stateDir: "/tmp/state",
    stateDirExists: true,
    integrationBranch: "swarm/s1/integration",
    branches: [],
    findings: 0,
  };
}

const events: SwarmEvent[] = [
  { type: "agent-added", swarmId: "s1", time: created + 2_000, agent: { id: "agent-1", role: "worker" } },
  { type: "agent-state", swarmId: "s1", time: created + 5_000, agentId: "agent-1", state: "act" },
  { type: "agent-state", swarmId: "s1", time: created + 41_000, agentId: "agent-1", state: "verify" },
  { type: "agent-state", swarmId: "s1", time: created + 30_000, agentId: "agent-1", state: "act" },
];

describe("a past swarm's duration", () => {
  it("runs to its newest recorded event when its owner died before it ended (a reload)", () => {
    const view = pastSwarmView(past("interrupted"), events);
    assert.equal(view.interrupted !== undefined, true);
    assert.equal((view.endedAt ?? 0) - view.startedAt, 41_000);
  });

  it("runs to when its window last saw it running, when that is later (a long call writes no event)", () => {
    const view = pastSwarmView(past("interrupted"), events, { lastSeenRunning: created + 47_000 });
    assert.equal((view.endedAt ?? 0) - view.startedAt, 47_000);
    assert.equal(
      pastSwarmView(past("interrupted"), events, { lastSeenRunning: created + 9_000 }).endedAt,
      created + 41_000,
    );
  });

  it("keeps the registry's end when there is one", () => {
    const view = pastSwarmView(past("interrupted", created + 50_000), events);
    assert.equal(view.endedAt, created + 50_000);
  });

  it("is 0 s only for a swarm that left no event after its start", () => {
    const view = pastSwarmView(past("interrupted"), []);
    assert.equal(view.endedAt, created);
  });
});
