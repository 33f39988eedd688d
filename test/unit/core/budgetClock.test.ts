// The swarm's wall clock (src/core/budgetClock.ts) on a hand-moved clock: continue, fan in at the end less the
// reserve, stop at the end; how long the synthesist and the others have left; a standing swarm's reserve of 0.
import { strict as assert } from "assert";
import { BudgetClock } from "../../../src/core/budgetClock";
import { fanInReserveMs } from "../../../src/core/budgets";
import type { Budgets } from "../../../src/protocol/recipe";

const budgets: Budgets = { wallClockMs: 100_000, tokensPerAgent: 1_000, steps: 10 };

function clockAt(reserveMs: number): { clock: BudgetClock; set: (ms: number) => void } {
  let now = 5_000;
  const clock = new BudgetClock(budgets, 5_000, reserveMs, () => now);
  return { clock, set: (ms) => (now = 5_000 + ms) };
}

describe("the budget clock", () => {
  it("goes on, fans in at the end less the reserve, and stops at the end", () => {
    const reserve = fanInReserveMs(budgets);
    assert.equal(reserve, 30_000, "15% of 100 s is under the 30 s floor");
    const { clock, set } = clockAt(reserve);
    assert.equal(clock.action(), "continue");
    assert.equal(clock.fanInDue(), false);
    set(69_999);
    assert.equal(clock.action(), "continue");
    set(70_000);
    assert.equal(clock.action(), "fanIn");
    assert.equal(clock.fanInDue(), true);
    set(100_000);
    assert.equal(clock.action(), "stop");
    assert.equal(clock.fanInDue(), true);
  });

  it("gives the synthesist until the end and everyone else until fan-in", () => {
    const { clock, set } = clockAt(30_000);
    set(10_000);
    assert.equal(clock.timeLeftMs(true), 90_000);
    assert.equal(clock.timeLeftMs(false), 60_000);
    set(80_000);
    assert.equal(clock.timeLeftMs(false), -10_000, "past fan-in the others have none left");
  });

  it("with no reserve (a standing swarm) runs everyone to the end", () => {
    const { clock, set } = clockAt(0);
    set(99_999);
    assert.equal(clock.action(), "continue");
    assert.equal(clock.timeLeftMs(false), 1);
    set(100_000);
    assert.equal(clock.action(), "stop");
  });
});
