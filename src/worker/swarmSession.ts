// One swarm run, start to end: set up (board, repository, model, tasks, trunk decoded once), run the seats
// stage by stage (their generations share each decode step), fan in through the synthesist, write the report.
// Everything it does is reported as events.
import { listRules } from "../core/agentRules";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { agentBrief, boardReport, synthesistBrief } from "../core/agentBriefs";
import { swarmBudgetAction } from "../core/budgets";
import type { SwarmEvent } from "../protocol/swarmEvents";
import type { AgentEventDraft } from "./agentRunner";
import { AgentStops } from "./agentStops";
import { SwarmSeats, type SeatEnd } from "./swarmSeats";
import { setUpSwarm, type SwarmRunOptions, type SwarmSetup } from "./swarmSetup";

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

  constructor(
    private readonly options: SwarmRunOptions,
    private readonly emitEvent: (event: SwarmEvent) => void,
  ) {}

  /** Stops every agent at its next step; what exists is compiled into the report. */
  stop(): void {
    this.controller.abort();
  }

  /** Stops one agent at its next step; false when it is not running. */
  stopAgent(agentId: string): boolean {
    return this.stops.stop(agentId);
  }

  async run(): Promise<SwarmSummary> {
    const setup = await setUpSwarm(this.options, (entry) => this.emit({ type: "board-entry", entry }));
    try {
      return await this.runStages(setup, new SwarmSeats(setup, this.seatHooks()));
    } finally {
      await setup.close();
    }
  }

  private seatHooks() {
    return {
      emit: (event: AgentEventDraft) => this.emit(event),
      signal: this.controller.signal,
      stops: this.stops,
      budgetAction: () => this.budgetAction(),
    };
  }

  private emit(draft: SessionEvent): void {
    this.emitEvent({ ...draft, swarmId: this.options.swarmId, time: Date.now() } as SwarmEvent);
  }

  private async runStages(setup: SwarmSetup, seats: SwarmSeats): Promise<SwarmSummary> {
    const { context, repo, plan, tasks, model } = setup;
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
    });
    const stopStats = this.reportStats(setup);
    try {
      const ends: SeatEnd[] = [];
      for (const stage of plan.stages) {
        if (this.controller.signal.aborted || this.fanInDue()) break;
        ends.push(...(await Promise.all(stage.map((s) => seats.runSeat(s, agentBrief(s.id, s.role, tasks))))));
      }
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

  /** Sends the KV budget whenever it changed, at most four times a second; returns the stop. */
  private reportStats({ context }: SwarmSetup): () => void {
    let last = "";
    const timer = setInterval(() => {
      const stats = context.stats();
      const key = JSON.stringify(stats);
      if (key !== last) this.emit({ type: "kv-stats", stats });
      last = key;
    }, 250);
    return () => clearInterval(timer);
  }

  private budgetAction(): "continue" | "fanIn" | "stop" {
    const { recipe, budgetMs } = this.options;
    const budgets = { ...recipe.budgets, ...(budgetMs ? { wallClockMs: budgetMs } : {}) };
    return swarmBudgetAction(budgets, this.startedAt, Date.now()).action;
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
