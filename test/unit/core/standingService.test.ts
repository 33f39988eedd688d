// Issue 29: a watching swarm says when nobody serves it. A standing swarm keeps running after its router ended
// (its budget spent, a crash), but then every trigger waits in its log: the view says "not served" with why and
// what to do (the budget's name in the recipe), and says nothing while a router is live or a new one took the seat.
import assert from "node:assert/strict";
import { notServed, notServedText, spentBudget } from "../../../src/core/standingService";
import { emptySwarm, reduceSwarm, type SwarmViewState } from "../../../src/core/swarmView";
import { triggerQueueLine } from "../../../src/core/triggerView";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";

const base = { swarmId: "w", time: 5 };
const running: SwarmViewState = { ...emptySwarm("w", 0), status: "running", recipe: "watch" };

function fold(view: SwarmViewState, events: SwarmEvent[]): SwarmViewState {
  return events.reduce(reduceSwarm, view);
}
const added = (id: string, role: string): SwarmEvent => ({ ...base, type: "agent-added", agent: { id, role } });
const state = (agentId: string, s: "gather" | "done" | "failed", reason?: string): SwarmEvent => ({
  ...base,
  type: "agent-state",
  agentId,
  state: s,
  ...(reason !== undefined ? { reason } : {}),
});
const trigger = (id: string, route: "router" | "dropped"): SwarmEvent => ({
  ...base,
  type: "trigger",
  trigger: { id, source: "diagnostic", fingerprint: id, time: 1, text: `error ${id}`, path: "src/a.ts", line: 2 },
  route: route === "router" ? { route } : { route, rule: "severity", reason: "a warning" },
  counts: { dropped: 0, direct: 0, router: 1 },
});

describe("core: whether a standing swarm is served (issue 29)", () => {
  it("is served while its router is live, and not served once it ended with no successor", () => {
    let view = fold(running, [added("agent-1", "router"), state("agent-1", "gather"), trigger("t1", "router")]);
    assert.equal(notServed(view), undefined, "a live router serves");
    view = fold(view, [state("agent-1", "done", "step budget of 1 steps spent"), trigger("t2", "dropped")]);
    assert.deepEqual(notServed(view), { router: "agent-1", reason: "step budget of 1 steps spent", waiting: 1 });
    assert.equal(
      notServedText(view, notServed(view)!),
      "Swarmboard: the watching swarm w is not served: its router agent-1 ended (step budget of 1 steps spent); " +
        "1 trigger waits in its log, and new ones will too. Raise budgets.steps in the recipe (watch: a copy in " +
        ".swarmboard/recipes/), then Stop Watching and Resume the swarm: a fresh router reads the waiting triggers.",
    );
    assert.equal(triggerQueueLine(view.triggers!.recent), "2 arrived · 1 waiting for the router · 1 dropped");
    // The router forked again after deciding something: served again.
    const again = fold(view, [added("agent-3", "router"), state("agent-3", "gather")]);
    assert.equal(notServed(again), undefined);
  });

  it("says a crashed router's reason, names the token budget, and ignores swarms that are not running or stand not", () => {
    const crashed = fold(running, [added("agent-1", "router"), state("agent-1", "failed", "the model call threw")]);
    assert.match(
      notServedText(crashed, notServed(crashed)!),
      /ended \(the model call threw\); new triggers wait.*Look at the router's lane/,
    );
    assert.equal(spentBudget("token budget of 16384 tokens spent"), "budgets.tokensPerAgent");
    assert.equal(spentBudget("wall clock"), undefined);
    assert.equal(notServed({ ...crashed, status: "stopped" }), undefined, "an ended swarm is not 'not served'");
    const plain = fold(running, [added("agent-1", "worker"), state("agent-1", "done")]);
    assert.equal(notServed(plain), undefined, "a swarm without a router is no standing swarm");
  });

  it("tells each trigger's state: waiting, held, routed, dropped, answered", () => {
    const decide = (triggerId: string, decision: Extract<SwarmEvent, { type: "trigger-decision" }>["decision"]) =>
      ({ ...base, type: "trigger-decision", triggerId, by: "agent-1", decision }) as SwarmEvent;
    const view = fold(running, [
      ...["a", "b", "c", "d", "e"].map((id) => trigger(id, "router")),
      decide("a", { action: "hold", reason: "needs more" }),
      decide("b", { action: "assign", task: "fix b" }),
      decide("c", { action: "drop", reason: "noise" }),
      decide("d", { action: "reply", text: "it is fine" }),
    ]);
    assert.deepEqual(
      view.triggers!.recent.map((t) => [t.id, t.state]),
      [
        ["a", "held"],
        ["b", "routed"],
        ["c", "dropped"],
        ["d", "replied"],
        ["e", "waiting"],
      ],
    );
    assert.equal(
      triggerQueueLine(view.triggers!.recent),
      "5 arrived · 1 waiting for the router · 1 held · 1 routed · 1 dropped · 1 answered",
    );
  });
});
