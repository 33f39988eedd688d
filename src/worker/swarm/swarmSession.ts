// One swarm run, start to end: set up (board, repository, model, tasks, trunk decoded once), run the seats
// stage by stage as the recipe declared them (their generations share each decode step), fan in through the
// synthesist, write the report.
// Everything it does is reported as events.
import { listRules } from "../../core/agentRules";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { boardReport, synthesistBrief } from "../../core/agentBriefs";
import { fanInReserveMs, swarmBudgetAction } from "../../core/budgets";
import { userAuthor, type DeliveredMessage } from "../../protocol/messages";
import type { SwarmEvent } from "../../protocol/swarmEvents";
import type { AgentEventDraft } from "../agent/agentEventDraft";
import { AgentStops } from "../agent/agentStops";
import { runWithTakeover } from "./seatTakeover";
import { SwarmSeats, type SeatEnd } from "./swarmSeats";
import { runDeclaredStages } from "./stageRunner";
import { setUpSwarm, type SwarmRunOptions, type SwarmSetup } from "./swarmSetup";
import { SwarmSteering } from "./swarmSteering";
import { defaultAskUserTimeoutSeconds } from "../../protocol/steering";
import { refuseRouterOutsideStanding, StandingSwarm } from "../standing/standingSwarm";

export type { SwarmRunOptions } from "./swarmSetup";

export interface SwarmSummary {
  readonly outcome: "completed" | "budget" | "stopped" | "failed";
  readonly reason: string;
  readonly reportPath: string;
  readonly integrationBranch: string;
  readonly agents: readonly SeatEnd[];
}

type SessionEvent = AgentEventDraft | Extract<SwarmEvent, { type: "swarm-started" | "swarm-ended" }>;

const endReasons = {
  stopped: "stopped by the user",
  budget: "the wall-clock budget ran out; the synthesist fanned in with what existed",
  completed: "every agent finished",
} as const;

export class SwarmSession {
  private readonly startedAt = Date.now();
  private readonly controller = new AbortController();
  private readonly stops = new AgentStops();
  /** The set-up swarm while its agents run (messages go to its board). */
  private running: SwarmSetup | undefined;
  /** Pause or resume an agent, add a task, answer a question (the person's other levers). */
  readonly steering: SwarmSteering;
  /** Set for a standing swarm (`swarmboard watch`): where triggers go in. */
  readonly standing: StandingSwarm | undefined;

  constructor(
    private readonly options: SwarmRunOptions,
    private readonly emitEvent: (event: SwarmEvent) => void,
  ) {
    const askUserSeconds = options.askUserTimeoutSeconds ?? defaultAskUserTimeoutSeconds;
    this.steering = new SwarmSteering(
      () => this.running?.board,
      (e) => this.emit(e),
      askUserSeconds * 1000,
    );
    this.standing =
      options.standing === undefined
        ? undefined
        : new StandingSwarm(
            options.standing,
            (e) => this.emit(e),
            () => this.controller.signal.aborted || this.fanInDue(),
          );
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
    const setup = await this.setUp();
    this.running = setup;
    try {
      return await this.runStages(setup, new SwarmSeats(setup, this.seatHooks()));
    } finally {
      this.running = undefined;
      this.steering.close();
      await setup.close();
    }
  }

  /**
   * The start RPC has returned by now: a set-up that fails (a trunk that does not fit, a model file gone since the
   * check) must end the swarm on the event stream like any other failure, or every view waits on "starting".
   */
  private async setUp(): Promise<SwarmSetup> {
    try {
      if (this.standing === undefined) refuseRouterOutsideStanding(this.options.recipe);
      return await setUpSwarm(this.options, (entry) => this.emit({ type: "board-entry", entry }));
    } catch (error) {
      const reason = `the swarm could not start: ${(error as Error).message}`;
      this.emit({ type: "swarm-ended", outcome: "failed", reason });
      throw error;
    }
  }

  private seatHooks() {
    return {
      emit: (event: AgentEventDraft) => this.emit(event),
      signal: this.controller.signal,
      stops: this.stops,
      budgetAction: () => this.budgetAction(),
      timeLeftMs: (isSynthesist: boolean) => this.timeLeftMs(isSynthesist),
      pauses: this.steering.pauses,
      askUser: (agentId: string, question: string, signal: AbortSignal) =>
        this.steering.questions.ask(agentId, question, signal),
    };
  }

  private emit(draft: SessionEvent): void {
    if (draft.type === "agent-added") this.standing?.observe(draft);
    this.emitEvent({ ...draft, swarmId: this.options.swarmId, time: Date.now() } as SwarmEvent);
  }

  private async runStages(setup: SwarmSetup, seats: SwarmSeats): Promise<SwarmSummary> {
    const { context, repo, model } = setup;
    this.emit({
      type: "swarm-started",
      goal: this.options.goal,
      recipe: this.options.recipe.name,
      mode: context.mode,
      model: model.facts,
      integrationBranch: repo.integrationBranch,
      trunkTokens: context.trunkTokens.length,
      ...(setup.trunkReuse ? { trunkReusedTokens: setup.trunkReuse.reusedTokens } : {}),
      rules: listRules(setup.rules),
      disk: setup.disk,
    });
    const stopStats = this.reportStats(setup);
    try {
      const ends = this.standing
        ? await this.standing.run(setup, seats, this.controller.signal)
        : await runDeclaredStages(
            setup,
            (seat, brief) =>
              runWithTakeover(setup, seats, seat, brief, {
                ending: () => this.controller.signal.aborted || this.fanInDue(),
                openTasks: (tasks) => this.steering.openTasks(tasks),
                emitEntry: (entry) => this.emit({ type: "board-entry", entry }),
              }),
            () => !this.controller.signal.aborted && !this.fanInDue(),
            () => this.steering.openTasks(setup.tasks),
          );
      const reportPath = await this.fanIn(setup, seats, ends);
      this.emit({ type: "kv-stats", stats: context.stats() });
      const outcome = this.controller.signal.aborted ? "stopped" : this.fanInDue() ? "budget" : "completed";
      const reason = endReasons[outcome];
      this.emit({ type: "swarm-ended", outcome, reason, reportPath });
      return { outcome, reason, reportPath, integrationBranch: repo.integrationBranch, agents: ends };
    } catch (error) {
      this.emit({ type: "swarm-ended", outcome: "failed", reason: (error as Error).message });
      throw error;
    } finally {
      stopStats();
    }
  }

  /** The budget every quarter second while it changes, and a remote engine's comings and goings as they happen. */
  private reportStats({ context }: SwarmSetup): () => void {
    const engineState = context.onEngineState((engine) => this.emit({ type: "engine-state", engine }));
    let last = "";
    const timer = setInterval(() => {
      const stats = context.stats();
      const key = JSON.stringify(stats);
      if (key !== last) this.emit({ type: "kv-stats", stats });
      last = key;
    }, 250);
    return () => {
      clearInterval(timer);
      engineState.dispose();
    };
  }

  private budgets() {
    const { recipe, budgetMs } = this.options;
    return { ...recipe.budgets, ...(budgetMs ? { wallClockMs: budgetMs } : {}) };
  }

  /**
   * The wall clock kept for the synthesist's fan-in. A standing swarm keeps none: it fans in nothing (its clock is
   * how long it watches, 24 hours by default, and 15% of that would stop its workers hours early).
   */
  private reserveMs(): number {
    return this.standing !== undefined ? 0 : fanInReserveMs(this.budgets());
  }

  private budgetAction(): "continue" | "fanIn" | "stop" {
    return swarmBudgetAction(this.budgets(), this.startedAt, Date.now(), this.reserveMs()).action;
  }

  /** Until the end for the synthesist; until fan-in (the end less the reserve) for everyone else. */
  private timeLeftMs(isSynthesist: boolean): number {
    const end = this.startedAt + this.budgets().wallClockMs - (isSynthesist ? 0 : this.reserveMs());
    return end - Date.now();
  }

  private fanInDue(): boolean {
    return this.budgetAction() !== "continue";
  }

  /** The synthesist reads every pad and writes the report; if it cannot, the board is compiled into one. */
  private async fanIn(setup: SwarmSetup, seats: SwarmSeats, ends: SeatEnd[]): Promise<string> {
    const { board, plan } = setup;
    const reportPath = path.join(this.options.stateDir, "report.md");
    let report: { title: string; body: string } | undefined;
    let why = "This swarm's recipe has no synthesist: this report was compiled from the board.";
    if (plan.synthesist !== undefined) {
      const { role, tools } = plan.synthesist;
      const synth = await seats.runSynthesist(role, tools, (id) => synthesistBrief(id, role, board.board.entries()));
      ends.push(synth);
      report = synth.end.report;
      why = `The synthesist ended without writing a report (${synth.end.reason}): this report was compiled from the board.`;
    }
    const text = report
      ? `# ${report.title}\n\n${report.body}\n`
      : boardReport(this.options.goal, board.board.entries(), why);
    await writeFile(reportPath, text);
    return reportPath;
  }
}
