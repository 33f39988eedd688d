// One swarm run, start to end: set up (board, repository, model, tasks, trunk decoded once), run the seats as its
// schedule says (the recipe's declared stages, or a standing swarm; their generations share each decode step),
// fan in through the synthesist, write the report. Everything it does is reported as events, its end included:
// whatever fails after the launch returned ends the swarm on the stream, or every view waits on "starting".
import { BudgetClock } from "../../core/budgetClock";
import { userAuthor, type DeliveredMessage } from "../../protocol/messages";
import { defaultAskUserTimeoutSeconds } from "../../protocol/steering";
import type { SwarmEvent } from "../../protocol/swarmEvents";
import { AgentStops } from "../agent/agentStops";
import { DeclaredStages } from "./declaredSchedule";
import type { SeatHooks } from "./seatRunner";
import type { SeatSchedule } from "./seatSchedule";
import { stampEvents, swarmStartedEvent, type SessionEvent } from "./sessionEvents";
import { commandsLine, probeBubblewrap } from "../../workspace/bubblewrap";
import { reportStats } from "./statsReporter";
import { writeSwarmReport } from "./swarmReport";
import type { SwarmRun } from "./swarmRun";
import type { SwarmRunOptions } from "./swarmRunOptions";
import { SwarmSeats, type SeatEnd } from "./swarmSeats";
import { setUpSwarm } from "./swarmSetup";
import { SwarmSteering } from "./swarmSteering";

export type { SwarmRunOptions } from "./swarmRunOptions";

export interface SwarmSummary {
  readonly outcome: "completed" | "budget" | "stopped" | "failed";
  readonly reason: string;
  readonly reportPath: string;
  readonly integrationBranch: string;
  readonly agents: readonly SeatEnd[];
}

const endReasons = {
  stopped: "stopped by the user",
  budget: "the wall-clock budget ran out; the synthesist fanned in with what existed",
  completed: "every agent finished",
} as const;

export class SwarmSession {
  private readonly controller = new AbortController();
  private readonly stops = new AgentStops();
  private readonly clock: BudgetClock;
  private readonly emit: (draft: SessionEvent) => void;
  /** The set-up swarm while its agents run (messages go to its board). */
  private running: SwarmRun | undefined;
  /** Pause or resume an agent, add a task, answer a question (the person's other levers). */
  readonly steering: SwarmSteering;

  constructor(
    private readonly options: SwarmRunOptions,
    emitEvent: (event: SwarmEvent) => void,
    /** How the seats run; whoever launches picks it (startSwarm.ts). Where triggers go in, for a standing swarm. */
    readonly schedule: SeatSchedule = new DeclaredStages(),
  ) {
    this.emit = stampEvents(options.swarmId, emitEvent, (draft) => schedule.observe(draft));
    const budgets = { ...options.recipe.budgets, ...(options.budgetMs ? { wallClockMs: options.budgetMs } : {}) };
    this.clock = new BudgetClock(budgets, Date.now(), schedule.fanInReserveMs(budgets), () => Date.now());
    const askUserSeconds = options.askUserTimeoutSeconds ?? defaultAskUserTimeoutSeconds;
    this.steering = new SwarmSteering(() => this.running?.board, this.emit, askUserSeconds * 1000);
  }

  /** Stops every agent at its next step; what exists is compiled into the report. */
  stop(): void {
    this.controller.abort();
  }

  /** Stops one agent at its next step; false when it is not running. */
  stopAgent(agentId: string): boolean {
    return this.stops.stop(agentId);
  }

  /**
   * A person's message to one agent (read with its next tool result) or to `swarm` (every agent, at its next
   * step), posted on the board as from "user". Refused while the swarm is starting or after it ended, and for an
   * agent that is not running.
   */
  async message(to: string, text: string): Promise<DeliveredMessage> {
    const board = this.running?.board;
    if (board === undefined) throw new Error("The swarm is not running (starting or ended); nothing was sent.");
    const sent = await board.send(userAuthor, to, text, Date.now());
    // Posted outside an agent's turn, so no runner emits it: the views learn of it here.
    const entry = board.board.entries().find((e) => e.id === sent.id);
    if (entry !== undefined) this.emit({ type: "board-entry", entry });
    return sent;
  }

  async run(): Promise<SwarmSummary> {
    let run: SwarmRun | undefined;
    try {
      this.schedule.refuse(this.options.recipe);
      run = await setUpSwarm(this.options, (entry) => this.emit({ type: "board-entry", entry }));
      this.running = run;
      return await this.runSeats(run);
    } catch (error) {
      const why = (error as Error).message;
      const reason = run === undefined ? `the swarm could not start: ${why}` : why;
      this.emit({ type: "swarm-ended", outcome: "failed", reason });
      throw error;
    } finally {
      this.running = undefined;
      this.steering.close();
      await run?.close();
    }
  }

  private async runSeats(run: SwarmRun): Promise<SwarmSummary> {
    this.emit(swarmStartedEvent(run, commandsLine(await probeBubblewrap())));
    const seats = new SwarmSeats(run, this.seatHooks());
    const stopStats = reportStats(run.context, this.emit);
    try {
      const ends = await this.schedule.run(run, seats, {
        emit: this.emit,
        signal: this.controller.signal,
        ending: () => this.ending(),
        openTasks: (tasks) => this.steering.openTasks(tasks),
      });
      const reportPath = await writeSwarmReport(run, seats, ends);
      this.emit({ type: "kv-stats", stats: run.context.stats() });
      const outcome = this.controller.signal.aborted ? "stopped" : this.clock.fanInDue() ? "budget" : "completed";
      const reason = endReasons[outcome];
      this.emit({ type: "swarm-ended", outcome, reason, reportPath });
      return { outcome, reason, reportPath, integrationBranch: run.repo.integrationBranch, agents: ends };
    } finally {
      stopStats();
    }
  }

  /** Stopped by the person, or the wall clock reached fan-in. */
  private ending(): boolean {
    return this.controller.signal.aborted || this.clock.fanInDue();
  }

  private seatHooks(): SeatHooks {
    return {
      emit: this.emit,
      signal: this.controller.signal,
      stops: this.stops,
      budgetAction: () => this.clock.action(),
      timeLeftMs: (isSynthesist) => this.clock.timeLeftMs(isSynthesist),
      pauses: this.steering.pauses,
      askUser: (agentId, question, signal) => this.steering.questions.ask(agentId, question, signal),
    };
  }
}
