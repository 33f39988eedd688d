// A swarm's approvals end once, whoever answers: the first answer counts and says how it ended (every window showing
// the request drops it), a later answer from another window is refused, and a request nobody answers or whose agent
// stopped ends as such.
import assert from "node:assert/strict";
import { emptySwarm, reduceSwarm } from "../../../src/core/swarmView";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";
import type { ApprovalRequest } from "../../../src/workspace/approvals";
import { SwarmApprovals, type ApprovalOutcome } from "../../../src/worker/swarm/swarmApprovals";

const request = (id: string): ApprovalRequest => ({
  id,
  agent: "agent-1",
  command: "npm install left-pad",
  cwd: "/tmp/w",
  reasons: ["not in the policy's allow list"],
  sandboxed: true,
});

function approvals(timeoutMs = 60_000) {
  const ended: Array<[string, ApprovalOutcome]> = [];
  const asked: string[] = [];
  const swarm = new SwarmApprovals(
    (r) => asked.push(r.id),
    (r, outcome) => ended.push([r.id, outcome]),
    timeoutMs,
  );
  return { swarm, ended, asked };
}

describe("a swarm's approvals end once", () => {
  it("counts the first answer, refuses a second one, and says how the request ended", async () => {
    const { swarm, ended } = approvals();
    const approved = swarm.requestApproval(request("r1"));
    assert.equal(swarm.answer("r1", "swarm"), true, "the first window's answer");
    assert.equal(swarm.answer("r1", "deny"), false, "the second window's answer comes too late");
    assert.equal(await approved, true);
    assert.deepEqual(ended, [["r1", "swarm"]]);
    assert.equal(
      await swarm.requestApproval(request("r2")),
      true,
      "allowed for the rest of the swarm: not asked again",
    );
  });

  it("ends as timed-out when nobody answers, and as withdrawn when the agent stops", async () => {
    const { swarm, ended } = approvals(20);
    assert.equal(await swarm.requestApproval(request("r1")), false);
    const controller = new AbortController();
    const withdrawn = swarm.requestApproval(request("r2"), controller.signal);
    controller.abort();
    assert.equal(await withdrawn, false);
    assert.deepEqual(ended, [
      ["r1", "timed-out"],
      ["r2", "withdrawn"],
    ]);
  });

  it("drops the request from every view that shows it when it ended", () => {
    const at = { swarmId: "s", time: 1 };
    const events: SwarmEvent[] = [
      { ...at, type: "agent-added", agent: { id: "agent-1", role: "worker" } },
      { ...at, type: "approval-request", requestId: "r1", agentId: "agent-1", command: "c", cwd: "/w", reason: "r" },
    ];
    const asking = events.reduce(reduceSwarm, emptySwarm("s", 0));
    assert.equal(asking.approvals.length, 1);
    const ended = reduceSwarm(asking, {
      ...at,
      type: "approval-ended",
      requestId: "r1",
      agentId: "agent-1",
      outcome: "once",
    });
    assert.deepEqual(ended.approvals, []);
  });
});
