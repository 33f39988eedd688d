// A swarm read back while it runs on the shared worker (a reloaded window catching up) keeps its open approval
// requests, so the window asks again; a past swarm, or one that runs elsewhere, asks nothing.
import assert from "node:assert/strict";
import { pastSwarmView } from "../../../src/host/swarm/pastSwarmView";
import type { PastSwarm } from "../../../src/protocol/swarmHistoryRpc";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";

const created = 1_700_000_000_000;
const running: PastSwarm = {
  swarmId: "s1",
  goal: "Fix median",
  recipe: "organization",
  outcome: "running",
  reason: "",
  launchedBy: "vscode",
  createdAt: created,
  stateDir: "/tmp/state",
  stateDirExists: true,
  integrationBranch: "swarm/s1/integration",
  branches: [],
  findings: 0,
};
const ask = (requestId: string, time: number): SwarmEvent => ({
  type: "approval-request",
  swarmId: "s1",
  time,
  requestId,
  agentId: "agent-1",
  command: "npm install left-pad",
  cwd: "/tmp/wt",
  reason: "the policy asks for npm install",
});
const events: SwarmEvent[] = [
  { type: "agent-added", swarmId: "s1", time: created + 1_000, agent: { id: "agent-1", role: "worker" } },
  ask("r1", created + 2_000),
  {
    type: "approval-ended",
    swarmId: "s1",
    time: created + 3_000,
    requestId: "r1",
    agentId: "agent-1",
    outcome: "once",
  },
  ask("r2", created + 4_000),
];

describe("open approvals of a swarm read back", () => {
  it("keeps the unanswered request of a swarm live in the followed worker, and not the answered one", () => {
    const view = pastSwarmView(running, events, { servedHere: true });
    assert.deepEqual(
      view.approvals.map((a) => a.requestId),
      ["r2"],
    );
  });

  it("asks nothing for a swarm another process runs, or one that ended", () => {
    assert.deepEqual(pastSwarmView(running, events).approvals, []);
    assert.deepEqual(pastSwarmView({ ...running, outcome: "interrupted" }, events, { servedHere: true }).approvals, []);
  });
});
