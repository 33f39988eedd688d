// A swarm's wall clock, from its start: whether to go on, fan in or stop (budgets.ts), and how long an agent has
// left. The synthesist runs to the end; everyone else to fan-in, the end less the reserve kept for the synthesist.
import type { Budgets } from "../protocol/recipe";
import { swarmBudgetAction } from "./budgets";

export class BudgetClock {
  constructor(
    private readonly budgets: Budgets,
    private readonly startedAt: number,
    /** The wall clock kept for fan-in (the schedule's: 0 for a standing swarm). */
    private readonly reserveMs: number,
    private readonly now: () => number,
  ) {}

  action(): "continue" | "fanIn" | "stop" {
    return swarmBudgetAction(this.budgets, this.startedAt, this.now(), this.reserveMs).action;
  }

  /** The clock reached fan-in (or the end): no new work starts. */
  fanInDue(): boolean {
    return this.action() !== "continue";
  }

  /** Until the end for the synthesist; until fan-in for everyone else. */
  timeLeftMs(isSynthesist: boolean): number {
    const end = this.startedAt + this.budgets.wallClockMs - (isSynthesist ? 0 : this.reserveMs);
    return end - this.now();
  }
}
