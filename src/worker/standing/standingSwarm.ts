// A standing swarm (`swarmboard watch`): the model and the trunk stay loaded and triggers keep coming. The inbox
// (triggerInbox.ts) logs each one and lets the fast path drop noise and send follow-ups to their owners; the rest
// wait on the router's desk. The router (a seat whose tools only dispatch) decides them in batches; each assigned
// trigger gets a new worker forked from the trunk that owns that one task until it ends. It runs until stopped;
// after a crash, `--resume` reads the trigger log back and picks up what was not decided or not finished.
import path from "node:path";
import { routerBrief, triggerLine } from "../../core/standingBriefs";
import { defaultTriggerRules } from "../../core/triggerFastPath";
import type { RouterDecision, Trigger, TriggerRules } from "../../protocol/triggers";
import type { AgentEventDraft } from "../agent/agentEventDraft";
import { pollUserBranch } from "./gitTriggerSource";
import { RouterDesk } from "./routerDesk";
import { SaveTestRuns } from "./saveTestRuns";
import type { Seat } from "../swarm/seatPlan";
import { routerSeatTools, standingSeats, untilStopped, writeBrief } from "./standingSeats";
import { StandingWorkers } from "./standingWorkers";
import type { ScheduleHooks, SeatSchedule, TriggerDoor } from "../swarm/seatSchedule";
import type { SeatEnd, SwarmSeats } from "../swarm/swarmSeats";
import type { SwarmRun } from "../swarm/swarmRun";
import type { TakenTrigger } from "../../protocol/triggers";
import { TriggerInbox } from "./triggerInbox";
import { ingestTriggerFiles } from "./triggerFiles";
import { TriggerLogFile } from "./triggerLog";

/** What makes a swarm a standing one. */
export interface StandingOptions {
  /** The fast path's rules; default src/core/triggerFastPath.ts's. */
  readonly rules?: TriggerRules;
  /** Recorded trigger streams (one JSON trigger a line) taken before the router starts; ids already taken are skipped. */
  readonly triggerFiles?: readonly string[];
  /** Poll the person's branch every this many milliseconds for commits (TODO/FIXME added, files of open threads). */
  readonly pollMs?: number;
}

interface Live {
  readonly setup: SwarmRun;
  readonly seats: SwarmSeats;
  readonly inbox: TriggerInbox;
  readonly workers: StandingWorkers;
  readonly saves: SaveTestRuns;
}

/** The standing schedule: what the session is given instead of its declared stages (startSwarm.ts picks it). */
export class StandingSwarm implements SeatSchedule, TriggerDoor {
  private live: Live | undefined;
  private readonly whenReady: Promise<void>;
  private ready!: () => void;
  private failed!: (error: Error) => void;
  private readonly desk: RouterDesk;
  private readonly ends: SeatEnd[] = [];
  private decisions = 0;
  /** The session's, from the start of `run`. */
  private emit: (event: AgentEventDraft) => void = () => undefined;
  private stopped: () => boolean = () => false;
  readonly triggers: TriggerDoor = this;

  constructor(private readonly options: StandingOptions) {
    this.whenReady = new Promise<void>((resolve, reject) => {
      this.ready = resolve;
      this.failed = reject;
    });
    this.whenReady.catch(() => undefined);
    const { holdMs } = options.rules ?? defaultTriggerRules;
    this.desk = new RouterDesk((t, d, by) => this.carryOut(t, d, by), holdMs);
  }

  /** Takes a trigger (waits while the swarm starts); refused with why for bad input or when the swarm failed. */
  async take(raw: unknown): Promise<TakenTrigger> {
    await this.whenReady;
    return this.live!.inbox.take(raw);
  }

  /** The person saved a file: the recipe's test command runs soon on their checkout; false when it has none. */
  async saved(): Promise<boolean> {
    await this.whenReady;
    return this.live!.saves.saved();
  }

  /** Any recipe with a router and a working role stands; which is checked at the start (standingSeats.ts). */
  refuse(): void {}

  /**
   * A standing swarm keeps no fan-in reserve: it fans in nothing (its clock is how long it watches, 24 hours by
   * default, and 15% of that would stop its workers hours early).
   */
  fanInReserveMs(): number {
    return 0;
  }

  /** Sees the session's events: a worker that joined the board owns its thread from then on. */
  observe(event: AgentEventDraft): void {
    if (event.type === "agent-added") void this.live?.workers.joined(event.agent.id);
  }

  /** Runs until the swarm stops; resolves with every agent's end. */
  async run(setup: SwarmRun, seats: SwarmSeats, hooks: ScheduleHooks): Promise<SeatEnd[]> {
    const { signal } = hooks;
    this.emit = hooks.emit;
    this.stopped = hooks.ending;
    const { router, worker, workerSeats } = standingSeats(setup);
    let log: TriggerLogFile | undefined;
    try {
      log = await TriggerLogFile.open(path.join(setup.options.stateDir, "triggers.jsonl"));
      const rules = this.options.rules ?? defaultTriggerRules;
      const inbox = new TriggerInbox(log, rules, () => Date.now());
      const recovered = inbox.restore();
      seats.skipNumbersThrough(recovered.lastAgentNumber);
      const note = (text: string) => this.note(text);
      const stopped = this.stopped;
      const workers = new StandingWorkers({ setup, seats, worker, workerSeats, inbox, emit: this.emit, note, stopped });
      const saves = new SaveTestRuns(setup, rules.saveDebounceMs, (raw) => this.take(raw), note);
      this.live = { setup, seats, inbox, workers, saves };
      inbox.connect({
        deliver: (agentId, t) => workers.deliver(agentId, t),
        toRouter: (t) => this.desk.enqueue(t),
        taken: (trigger, route) => this.emit({ type: "trigger", trigger, route, counts: { ...inbox.fastPath.counts } }),
      });
      for (const t of recovered.forRouter) this.desk.enqueue(t);
      for (const job of recovered.toAssign) workers.assign(job);
      this.ready();
    } catch (error) {
      this.failed(error as Error);
      await log?.close();
      throw error;
    }
    try {
      await ingestTriggerFiles(
        this.options.triggerFiles ?? [],
        (raw) => this.take(raw),
        (text) => this.note(text),
      );
      const stopPolling = this.options.pollMs
        ? pollUserBranch(
            setup,
            this.options.pollMs,
            (raw) => this.take(raw),
            (text) => this.note(text),
          )
        : () => undefined;
      try {
        await this.runRouter(router, signal);
        await untilStopped(signal, this.stopped);
      } finally {
        stopPolling();
      }
      await this.live.workers.settle();
      return [...this.ends, ...this.live.workers.ends];
    } finally {
      await this.live.saves.close();
      await log.close();
    }
  }

  /** The router runs while the swarm does; one that ends having decided something is forked again from the trunk. */
  private async runRouter(seat: Seat, signal: AbortSignal): Promise<void> {
    const { seats, setup, workers } = this.live!;
    const tools = routerSeatTools(seat.role, this.desk);
    const brief = async (id: string) => {
      const text = routerBrief(id, seat.role, workers.list());
      await writeBrief(setup, id, text);
      return text;
    };
    let first = true;
    while (!signal.aborted && !this.stopped()) {
      const before = this.decisions;
      // A fresh router reads again what its predecessor was shown and did not decide.
      if (!first) this.desk.reshow();
      const end = first
        ? await seats.runSeat({ ...seat, tools }, await brief(seat.id))
        : await seats.runFreshSeat(seat.role, tools, brief);
      first = false;
      this.ends.push(end);
      if (signal.aborted || this.stopped()) break;
      if (this.decisions === before) {
        await this.note(
          `The router ${end.id} ended without deciding a trigger (${end.end.reason}); triggers for the router wait in ` +
            "the trigger log until the swarm is resumed.",
        );
        break;
      }
    }
  }

  /** Carries out one router decision: logged first, then done. */
  private async carryOut(trigger: Trigger, decision: RouterDecision, by: string): Promise<string> {
    const { setup, inbox, workers } = this.live!;
    if (decision.action === "forward" && !setup.board.messages.has(decision.agentId))
      throw new Error(
        `no-such-agent: ${decision.agentId} is not running; forward to a running agent or assign a worker.`,
      );
    await inbox.record({ kind: "decision", triggerId: trigger.id, by, time: Date.now(), decision });
    this.decisions++;
    this.emit({ type: "trigger-decision", triggerId: trigger.id, by, decision });
    switch (decision.action) {
      case "assign": {
        const waits = workers.full();
        workers.assign({ trigger, task: decision.task });
        return waits ? "assigned: its worker starts when a worker seat frees" : "assigned: a new worker owns it";
      }
      case "forward": {
        await workers.message(decision.agentId, `From the router (${by}): ${decision.note}\n${triggerLine(trigger)}`);
        for (const f of await inbox.handOver(trigger.id, decision.agentId, true))
          await workers.deliver(decision.agentId, f);
        return `forwarded to ${decision.agentId}`;
      }
      case "reply":
        inbox.closeThread(trigger.id);
        return "the person reads your reply";
      case "hold":
        return "held: it comes back with the next batch";
      case "drop":
        inbox.closeThread(trigger.id);
        return "dropped";
    }
  }

  private async note(text: string): Promise<void> {
    const entry = await this.live!.setup.board.postFinding({
      author: "swarmboard",
      kind: "OBSERVED",
      text,
      time: Date.now(),
    });
    this.emit({ type: "board-entry", entry });
  }
}
