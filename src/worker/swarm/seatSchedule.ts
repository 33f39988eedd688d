// How a set-up swarm's seats are run: the recipe's declared stages by default (declaredSchedule.ts), or another
// schedule that whoever launches picks (the standing swarm, worker/standing/). The session asks its schedule what
// differs (the recipes it refuses, the fan-in reserve, the events it watches, where triggers go in) and never
// which kind it runs, so this floor knows nothing of the floors above it.
import type { Budgets, Recipe } from "../../protocol/recipe";
import type { TakenTrigger } from "../../protocol/triggers";
import type { Task } from "../../protocol/tasks";
import type { AgentEventDraft } from "../agent/agentEventDraft";
import type { SeatEnd, SwarmSeats } from "./swarmSeats";
import type { SwarmRun } from "./swarmRun";

/** What a schedule is given of the session around it while it runs. */
export interface ScheduleHooks {
  readonly emit: (event: AgentEventDraft) => void;
  /** Aborted when the person stops the swarm. */
  readonly signal: AbortSignal;
  /** The swarm is stopping or fanning in (stopped, or the wall clock's reserve reached): start nothing new. */
  readonly ending: () => boolean;
  /** The tasks still open of `tasks` (the person may add some, and close some, while the swarm runs). */
  readonly openTasks: (tasks: readonly Task[]) => readonly Task[];
}

/** Where triggers from outside (the editor's errors, saves, `swarmboard watch`'s stdin) go in. */
export interface TriggerDoor {
  /** Takes a trigger (waits while the swarm starts); refused with why for bad input or when the swarm failed. */
  take(raw: unknown): Promise<TakenTrigger>;
  /** The person saved a file: the recipe's test command runs soon on their checkout; false when it has none. */
  saved(): Promise<boolean>;
}

export interface SeatSchedule {
  /** Throws with why when this schedule cannot run `recipe` (checked before anything is set up). */
  refuse(recipe: Pick<Recipe, "name" | "roles">): void;
  /** The wall clock kept for the synthesist's fan-in. */
  fanInReserveMs(budgets: Budgets): number;
  /** Sees every event of the session's agents. */
  observe(event: AgentEventDraft): void;
  /** Where triggers go in; undefined for a schedule that takes none. */
  readonly triggers: TriggerDoor | undefined;
  /** Runs the seats until the schedule is done or the swarm ends; resolves with every agent's end. */
  run(run: SwarmRun, seats: SwarmSeats, hooks: ScheduleHooks): Promise<SeatEnd[]>;
}
