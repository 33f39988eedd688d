// Runs a swarm's working seats stage by stage as the recipe declared them: a stage starts as soon as the stages
// it comes after are done (src/core/stageSchedule.ts), and each of its agents reads their output (summaries and
// findings, src/core/stageInputs.ts) in its brief. What each agent was told is kept in the state dir
// (`briefs/<agent>.txt`, next to the trunk's `trunk.txt`).
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { agentBrief } from "../../core/agentBriefs";
import { stageInputText, type StageOutput } from "../../core/stageInputs";
import { runStageGraph } from "../../core/stageSchedule";
import { isFindingKind } from "../../protocol/findingKinds";
import type { Task } from "../../protocol/tasks";
import type { Seat } from "./seatPlan";
import type { SeatEnd } from "./swarmSeats";
import type { ScheduleGround } from "./swarmRun";

interface StageResult {
  readonly ends: readonly SeatEnd[];
  readonly output: StageOutput;
}

/**
 * Every seat's ends (a seat may end more than once: a task taken over runs a fresh agent), in plan order; stages
 * not started when `mayStart` said no are missing.
 */
export async function runDeclaredStages(
  setup: ScheduleGround,
  runSeat: (seat: Seat, brief: string) => Promise<SeatEnd[]>,
  mayStart: () => boolean,
  /** The open tasks when a seat starts (the person may add some while the swarm runs). */
  openTasks: () => readonly Task[] = () => setup.tasks,
): Promise<SeatEnd[]> {
  const briefs = path.join(setup.options.stateDir, "briefs");
  await mkdir(briefs, { recursive: true });
  // The input may take half of an agent's share of the pool, at no less than one character a token.
  const maxInputChars = Math.floor(setup.tailBudget / 2);
  const results = await runStageGraph<StageResult>(
    setup.plan.graph,
    async (i, before) => {
      const input = stageInputText(
        before.map((b) => b.output),
        maxInputChars,
      );
      const runs = await Promise.all(
        setup.plan.stages[i]!.map(async (seat) => {
          const open = openTasks();
          const brief = [agentBrief(seat.id, seat.role, open, sameTasks(open, setup.tasks)), ...(input ? [input] : [])];
          await writeFile(path.join(briefs, `${seat.id}.txt`), brief.join("\n"));
          return runSeat(seat, brief.join("\n"));
        }),
      );
      const ends = runs.flat();
      return { ends, output: stageOutput(setup, setup.plan.graph[i]!.name, ends) };
    },
    mayStart,
  );
  return results.flatMap((r) => (r === undefined ? [] : r.ends));
}

/** Whether the tasks open now are those the trunk listed at launch (then the brief need not list them again). */
function sameTasks(open: readonly Task[], inTrunk: readonly Task[]): boolean {
  const listed = new Set(inTrunk.map((t) => t.id));
  return open.length === listed.size && open.every((t) => listed.has(t.id));
}

/** A stage's output: its agents' closing summaries and the findings of their families (sub-agents included). */
function stageOutput(setup: Pick<ScheduleGround, "board">, stage: string, ends: readonly SeatEnd[]): StageOutput {
  const { board } = setup;
  const agents = new Set(ends.map((e) => e.id));
  return {
    stage,
    agents: ends.map((e) => ({ id: e.id, role: e.role, summary: e.end.reason })),
    findings: board.board.entries().filter((e) => isFindingKind(e.kind) && agents.has(board.padOf(e.author))),
  };
}
