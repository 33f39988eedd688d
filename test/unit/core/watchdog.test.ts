import { strict as assert } from "assert";
import type { Budgets } from "../../../src/protocol/recipe";
import { agentBudgetExceeded, fanInReserveMs, swarmBudgetAction } from "../../../src/core/budgets";
import { nudgeText, Watchdog, type StepReport } from "../../../src/core/watchdog";

const idle: StepReport = { toolCall: { name: "read_file", args: { path: "x" } } };
const step = (n: number): StepReport => ({ toolCall: { name: "read_file", args: { path: `f${n}` } } });

describe("watchdog", () => {
  it("triggers after K steps without a finding, diff or test change", () => {
    const w = new Watchdog({ noProgressSteps: 3, repeatLimit: 10 });
    assert.equal(w.observe(step(1)).action, "none");
    assert.equal(w.observe(step(2)).action, "none");
    assert.deepEqual(w.observe(step(3)), { action: "nudge", reason: "no new finding, diff or test change in 3 steps" });
  });

  it("triggers on the same tool call with the same arguments R times, whatever the key order", () => {
    const w = new Watchdog({ noProgressSteps: 100, repeatLimit: 3 });
    w.observe({ toolCall: { name: "search", args: { pattern: "x", paths: ["a"] } } });
    w.observe(step(9));
    w.observe({ toolCall: { name: "search", args: { paths: ["a"], pattern: "x" } } });
    const verdict = w.observe({ toolCall: { name: "search", args: { pattern: "x", paths: ["a"] } } });
    assert.deepEqual(verdict, { action: "nudge", reason: "called search with the same arguments 3 times" });
  });

  it("triggers on the same error again", () => {
    const w = new Watchdog({ noProgressSteps: 100, repeatLimit: 100 });
    assert.equal(w.observe({ error: "TypeError: x is undefined" }).action, "none");
    assert.equal(w.observe({ error: "other" }).action, "none");
    const v = w.observe({ error: "TypeError: x is undefined " });
    assert.ok(v.action === "nudge");
    assert.match(v.reason, /the same error again \(2 times\): TypeError/);
  });

  it("escalates: nudge, then release the claim, then stop", () => {
    const w = new Watchdog({ noProgressSteps: 2, repeatLimit: 100 });
    const actions: string[] = [];
    for (let i = 0; i < 8; i++) actions.push(w.observe(step(i)).action);
    assert.deepEqual(actions, ["none", "nudge", "none", "releaseClaim", "none", "stop", "none", "stop"]);
    assert.equal(w.escalationLevel, 3);
  });

  it("progress clears the escalation and the counters", () => {
    const w = new Watchdog({ noProgressSteps: 2, repeatLimit: 2 });
    w.observe(idle);
    assert.equal(w.observe(idle).action, "nudge");
    for (const progress of [{ finding: true }, { diff: true }, { testChange: true }]) {
      w.observe(idle);
      assert.equal(w.observe({ ...idle, progress }).action, "none");
      assert.equal(w.escalationLevel, 0);
    }
    assert.equal(w.observe(idle).action, "none", "the repeat count started again");
    assert.equal(w.observe(idle).action, "nudge", "and the escalation too");
  });

  it("refuses nonsense options and words a nudge", () => {
    assert.throws(
      () => new Watchdog({ noProgressSteps: 0, repeatLimit: 3 }),
      /noProgressSteps must be a whole number of at least 1, got 0/,
    );
    assert.throws(
      () => new Watchdog({ noProgressSteps: 3, repeatLimit: 3, repeatErrorLimit: 1.5 }),
      /repeatErrorLimit/,
    );
    assert.match(nudgeText("no new finding in 3 steps"), /^Watchdog: no new finding in 3 steps\. Change approach/);
  });
});

describe("budgets", () => {
  const budgets: Budgets = { wallClockMs: 600_000, tokensPerAgent: 1000, kvCells: 4096, steps: 10 };

  it("keeps going, then makes the synthesist fan in, then stops", () => {
    const reserve = fanInReserveMs(budgets);
    assert.equal(reserve, 90_000);
    assert.deepEqual(swarmBudgetAction(budgets, 1000, 1000 + 509_999), { action: "continue" });
    assert.equal(swarmBudgetAction(budgets, 1000, 1000 + 510_000).action, "fanIn");
    assert.equal(swarmBudgetAction(budgets, 1000, 1000 + 600_000).action, "stop");
    assert.equal(fanInReserveMs({ ...budgets, wallClockMs: 40_000 }), 20_000, "never more than half the budget");
  });

  it("stops an agent at its step or token budget", () => {
    assert.equal(agentBudgetExceeded(budgets, { steps: 9, tokens: 999 }), undefined);
    assert.equal(agentBudgetExceeded(budgets, { steps: 10, tokens: 0 }), "step budget of 10 steps spent");
    assert.equal(agentBudgetExceeded(budgets, { steps: 0, tokens: 1000 }), "token budget of 1000 tokens spent");
  });
});
