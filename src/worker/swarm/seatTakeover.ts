// A seat run with takeovers: when the watchdog released a task its agent held and nobody finished it, a fresh
// agent of the same role, forked from the trunk, takes it over with the old agent's notes (src/core/takeover.ts),
// and so on while the swarm goes on.
import { agentBrief } from "../../core/agentBriefs";
import { handoverText, takeoverBrief, tasksToTakeOver } from "../../core/takeover";
import type { BoardEntry } from "../../protocol/board";
import type { Task } from "../../protocol/tasks";
import type { Seat } from "./seatPlan";
import type { SeatEnd, SwarmSeats } from "./swarmSeats";
import type { ScheduleGround } from "./swarmRun";

export interface TakeoverHooks {
  /** The swarm is stopping or fanning in: no more takeovers. */
  readonly ending: () => boolean;
  /** The tasks still open, for the new agent's brief. */
  readonly openTasks: (tasks: readonly Task[]) => readonly Task[];
  readonly emitEntry: (entry: BoardEntry) => void;
}

export async function runWithTakeover(
  setup: Pick<ScheduleGround, "board" | "tasks">,
  seats: SwarmSeats,
  seat: Seat,
  brief: string,
  hooks: TakeoverHooks,
): Promise<SeatEnd[]> {
  const { board, tasks } = setup;
  const ends = [await seats.runSeat(seat, brief)];
  while (!hooks.ending()) {
    const [handover] = tasksToTakeOver(board.board.entries(), ends[ends.length - 1].id);
    if (handover === undefined) break;
    const end = await seats.runFreshSeat(seat.role, seat.tools, async (id) => {
      const entry = await board.postFinding({
        author: "swarmboard",
        kind: "OBSERVED",
        text: handoverText(handover, id),
        scope: { taskId: handover.taskId },
        time: Date.now(),
      });
      hooks.emitEntry(entry);
      return takeoverBrief(agentBrief(id, seat.role, hooks.openTasks(tasks)), handover);
    });
    ends.push(end);
  }
  return ends;
}
