// The default seat schedule: the recipe's stages as it declared them (stageRunner.ts), each seat run with
// takeovers (seatTakeover.ts), then the synthesist's fan-in with 15% of the wall clock kept for it.
import { fanInReserveMs } from "../../core/budgets";
import type { Budgets, Recipe } from "../../protocol/recipe";
import { routerRoleName } from "../../protocol/triggers";
import type { SeatSchedule, ScheduleHooks } from "./seatSchedule";
import { runWithTakeover } from "./seatTakeover";
import { runDeclaredStages } from "./stageRunner";
import type { SwarmRun } from "./swarmRun";
import type { SeatEnd, SwarmSeats } from "./swarmSeats";

/** A recipe with a router runs only standing: outside one its router would have no triggers to dispatch. */
export function refuseRouterOutsideStanding(recipe: Pick<Recipe, "name" | "roles">): void {
  if (recipe.roles.some((r) => r.name === routerRoleName))
    throw new Error(
      `The recipe ${recipe.name} has a "${routerRoleName}" role: it runs only as a standing swarm (swarmboard watch).`,
    );
}

export class DeclaredStages implements SeatSchedule {
  readonly triggers = undefined;

  refuse(recipe: Pick<Recipe, "name" | "roles">): void {
    refuseRouterOutsideStanding(recipe);
  }

  fanInReserveMs(budgets: Budgets): number {
    return fanInReserveMs(budgets);
  }

  observe(): void {}

  run(run: SwarmRun, seats: SwarmSeats, hooks: ScheduleHooks): Promise<SeatEnd[]> {
    return runDeclaredStages(
      run,
      (seat, brief) =>
        runWithTakeover(run, seats, seat, brief, {
          ending: hooks.ending,
          openTasks: hooks.openTasks,
          emitEntry: (entry) => hooks.emit({ type: "board-entry", entry }),
        }),
      () => !hooks.ending(),
      () => hooks.openTasks(run.tasks),
    );
  }
}
