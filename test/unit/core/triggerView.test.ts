// A standing swarm's triggers in the one view every surface projects: the counters as the worker sent them, the
// newest triggers with where each went, the router's decisions counted once, and each thread's owner filled in.
import assert from "node:assert/strict";
import { emptySwarm, reduceSwarm, type SwarmViewState } from "../../../src/core/swarmView";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";
import type { Trigger } from "../../../src/protocol/triggers";

const base = { swarmId: "s", time: 5 };
const t = (id: string, more: Partial<Trigger> = {}): Trigger => ({
  id,
  source: "diagnostic",
  fingerprint: id,
  time: 1,
  text: `error ${id}`,
  ...more,
});

describe("core: the trigger stream in the swarm view", () => {
  it("lists triggers with their route, counts decisions once, and names the owner when a worker takes one", () => {
    const events: SwarmEvent[] = [
      {
        ...base,
        type: "trigger",
        trigger: t("a", { path: "src/a.ts", line: 3 }),
        route: { route: "router" },
        counts: { dropped: 0, direct: 0, router: 1 },
      },
      {
        ...base,
        type: "trigger",
        trigger: t("b", { path: "dist/b.js" }),
        route: { route: "dropped", rule: "deny", reason: "x" },
        counts: { dropped: 1, direct: 0, router: 1 },
      },
      {
        ...base,
        type: "trigger-decision",
        triggerId: "a",
        by: "agent-1",
        decision: { action: "assign", task: "fix a" },
      },
      {
        ...base,
        type: "trigger-decision",
        triggerId: "a",
        by: "agent-5",
        decision: { action: "assign", task: "fix a" },
        agentId: "agent-5",
      },
      {
        ...base,
        type: "trigger",
        trigger: t("c", { source: "message", text: "what  is\nthis?" }),
        route: { route: "direct", agentId: "agent-5", thread: "a" },
        counts: { dropped: 1, direct: 1, router: 1 },
      },
    ];
    let view: SwarmViewState = emptySwarm("s", 0);
    for (const e of events) view = reduceSwarm(view, e);
    assert.deepEqual(view.triggers?.counts, { dropped: 1, direct: 1, router: 1 });
    assert.equal(view.triggers?.decisions, 1, "an assignment and its worker's start count as one decision");
    assert.deepEqual(
      view.triggers?.recent.map((r) => [r.id, r.what, r.decision, r.owner]),
      [
        ["a", "src/a.ts:3", "owned by agent-5", "agent-5"],
        ["b", "dist/b.js", "dropped: deny", undefined],
        ["c", "what is this?", "to agent-5", "agent-5"],
      ],
    );
  });
});
