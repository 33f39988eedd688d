// A standing swarm (`swarmboard watch`): the model and the trunk stay loaded and triggers keep coming. The inbox
// (triggerInbox.ts) logs each one and lets the fast path drop noise and send follow-ups to their owners; the rest
// wait on the router's desk. The router (a seat whose tools only dispatch) decides them in batches; each assigned
// trigger gets a new worker forked from the trunk that owns that one task until it ends. It runs until stopped;
// after a crash, `--resume` reads the trigger log back and picks up what was not decided or not finished.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { routerBrief, triggerLine, triggerTask, workerBrief } from "../core/standingBriefs";
import { defaultTriggerRules } from "../core/triggerFastPath";
import type { Role } from "../protocol/recipe";
import type { RouterDecision, Trigger, TriggerRules } from "../protocol/triggers";
import type { AgentEventDraft } from "./agentRunnerDeps";
import { RouterDesk } from "./routerDesk";
import type { Seat } from "./seatPlan";
import type { SeatEnd, SwarmSeats } from "./swarmSeats";
import type { SwarmSetup } from "./swarmSetup";
import { toolsForRole, type CatalogTool } from "./toolCatalog";
import { assertDispatchOnly, routerTools } from "./tools/routerTools";
import { TriggerInbox, type TakenTrigger } from "./triggerInbox";
import { TriggerLogFile } from "./triggerLog";
import { ingestTriggerFiles } from "./triggerFiles";
import { pollUserBranch } from "./gitTriggerSource";

/** What makes a swarm a standing one. */
export interface StandingOptions {
  /** The fast path's rules; default src/core/triggerFastPath.ts's. */
  readonly rules?: TriggerRules;
  /** Recorded trigger streams (one JSON trigger a line) taken before the router starts; ids already taken are skipped. */
  readonly triggerFiles?: readonly string[];
  /** Poll the person's branch every this many milliseconds for commits (TODO/FIXME added, files of open threads). */
  readonly pollMs?: number;
}

export const routerRoleName = "router";

interface Job {
  readonly trigger: Trigger;
  readonly task: string;
}

export class StandingSwarm {
  private inbox: TriggerInbox | undefined;
  private readonly whenReady: Promise<void>;
  private ready!: () => void;
  private failed!: (error: Error) => void;
  private readonly desk = new RouterDesk((t, d, by) => this.carryOut(t, d, by));
  private readonly jobs: Job[] = [];
  private readonly running = new Map<string, string>();
  /** Workers forked and briefed, not yet on the board: their thread becomes theirs when they join. */
  private readonly joining = new Map<string, string>();
  private readonly workerRuns: Promise<void>[] = [];
  private readonly ends: SeatEnd[] = [];
  private decisions = 0;
  private live: { setup: SwarmSetup; seats: SwarmSeats; worker: Seat; workerSeats: number } | undefined;

  constructor(
    private readonly options: StandingOptions,
    private readonly emit: (event: AgentEventDraft) => void,
    private readonly stopped: () => boolean,
  ) {
    this.whenReady = new Promise<void>((resolve, reject) => {
      this.ready = resolve;
      this.failed = reject;
    });
    this.whenReady.catch(() => undefined);
  }

  /** Takes a trigger (waits while the swarm starts); refused with why for bad input or when the swarm failed. */
  async take(raw: unknown): Promise<TakenTrigger> {
    await this.whenReady;
    return this.inbox!.take(raw);
  }

  /** Sees the session's events: a worker that joined the board owns its thread from then on. */
  observe(event: AgentEventDraft): void {
    if (event.type !== "agent-added") return;
    const thread = this.joining.get(event.agent.id);
    if (thread === undefined) return;
    this.joining.delete(event.agent.id);
    void this.own(thread, event.agent.id);
  }

  /** Runs until the swarm stops; resolves with every agent's end. */
  async run(setup: SwarmSetup, seats: SwarmSeats, signal: AbortSignal): Promise<SeatEnd[]> {
    const { router, worker, workerSeats } = standingSeats(setup);
    let log: TriggerLogFile | undefined;
    try {
      log = await TriggerLogFile.open(path.join(setup.options.stateDir, "triggers.jsonl"));
      const inbox = new TriggerInbox(log, this.options.rules ?? defaultTriggerRules, () => Date.now());
      const recovered = inbox.restore();
      seats.skipNumbersThrough(recovered.lastAgentNumber);
      this.live = { setup, seats, worker, workerSeats };
      this.inbox = inbox;
      inbox.connect({
        deliver: (agentId, t) => this.deliver(agentId, t),
        toRouter: (t) => this.desk.enqueue(t),
        taken: (trigger, route) => this.emit({ type: "trigger", trigger, route, counts: { ...inbox.fastPath.counts } }),
      });
      for (const t of recovered.forRouter) this.desk.enqueue(t);
      for (const job of recovered.toAssign) this.assign(job);
      this.ready();
    } catch (error) {
      this.failed(error as Error);
      await log?.close();
      throw error;
    }
    try {
      await ingestTriggerFiles(
        this.options.triggerFiles ?? [],
        (raw) => this.inbox!.take(raw),
        (note) => this.note(note),
      );
      const stopPolling = this.options.pollMs
        ? pollUserBranch(
            setup,
            this.options.pollMs,
            (raw) => this.inbox!.take(raw),
            (note) => this.note(note),
          )
        : () => undefined;
      try {
        await this.runRouter(router, signal);
        await untilStopped(signal, this.stopped);
      } finally {
        stopPolling();
      }
      await Promise.all(this.workerRuns);
      return this.ends;
    } finally {
      await log.close();
    }
  }

  /** The router runs while the swarm does; one that ends having decided something is forked again from the trunk. */
  private async runRouter(seat: Seat, signal: AbortSignal): Promise<void> {
    const { seats, setup } = this.live!;
    const tools = routerSeatTools(seat.role, this.desk);
    const brief = async (id: string) => {
      const text = routerBrief(
        id,
        seat.role,
        [...this.running].map(([w, thread]) => ({ id: w, task: thread })),
      );
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
    const { setup } = this.live!;
    if (decision.action === "forward" && !setup.board.messages.has(decision.agentId))
      throw new Error(
        `no-such-agent: ${decision.agentId} is not running; forward to a running agent or assign a worker.`,
      );
    await this.inbox!.record({ kind: "decision", triggerId: trigger.id, by, time: Date.now(), decision });
    this.decisions++;
    this.emit({ type: "trigger-decision", triggerId: trigger.id, by, decision });
    switch (decision.action) {
      case "assign": {
        const waiting = this.running.size >= this.live!.workerSeats;
        this.assign({ trigger, task: decision.task });
        return waiting ? "assigned: its worker starts when a worker seat frees" : "assigned: a new worker owns it";
      }
      case "forward": {
        await this.message(decision.agentId, `From the router (${by}): ${decision.note}\n${triggerLine(trigger)}`);
        for (const f of await this.inbox!.handOver(trigger.id, decision.agentId, true))
          await this.deliver(decision.agentId, f);
        return `forwarded to ${decision.agentId}`;
      }
      case "reply":
        this.inbox!.closeThread(trigger.id);
        return "the person reads your reply";
      case "hold":
        return "held: it comes back with the next batch";
      case "drop":
        this.inbox!.closeThread(trigger.id);
        return "dropped";
    }
  }

  private assign(job: Job): void {
    this.jobs.push(job);
    this.pump();
  }

  /** Starts queued workers while worker seats are free. */
  private pump(): void {
    const live = this.live!;
    while (this.running.size + this.joining.size < live.workerSeats && this.jobs.length > 0 && !this.stopped()) {
      const job = this.jobs.shift()!;
      const reserve = `pending-${job.trigger.id}`;
      this.running.set(reserve, job.task);
      const run = this.runWorker(job, reserve).finally(() => this.pump());
      this.workerRuns.push(
        run.catch((error: unknown) => this.note(`worker for ${job.trigger.id} failed: ${(error as Error).message}`)),
      );
    }
  }

  private async runWorker(job: Job, reserve: string): Promise<void> {
    const { seats, worker, setup } = this.live!;
    const { trigger } = job;
    const task = triggerTask(trigger, job.task);
    let id: string | undefined;
    try {
      const end = await seats.runFreshSeat(worker.role, worker.tools, async (agentId) => {
        id = agentId;
        this.running.delete(reserve);
        this.running.set(agentId, task.title);
        await this.inbox!.record({ kind: "worker", thread: trigger.id, agentId, state: "started", time: Date.now() });
        this.emit({
          type: "trigger-decision",
          triggerId: trigger.id,
          by: agentId,
          decision: { action: "assign", task: job.task },
          agentId,
        });
        const followUps = await this.inbox!.handOver(trigger.id, agentId, false);
        this.joining.set(agentId, trigger.id);
        const text = workerBrief(agentId, worker.role, task, trigger, followUps);
        await writeBrief(setup, agentId, text);
        return text;
      });
      this.ends.push(end);
      await this.inbox!.record({
        kind: "worker",
        thread: trigger.id,
        agentId: end.id,
        state: "ended",
        reason: end.end.reason,
        time: Date.now(),
      });
    } finally {
      this.running.delete(reserve);
      if (id !== undefined) {
        this.running.delete(id);
        this.joining.delete(id);
        this.inbox!.closeThread(trigger.id);
        for (const thread of this.inbox!.threads.closeOwnedBy(id)) this.inbox!.closeThread(thread);
      }
    }
  }

  /** The worker joined the board: its thread is its own, and what was parked meanwhile reaches it as messages. */
  private async own(thread: string, agentId: string): Promise<void> {
    for (const f of await this.inbox!.handOver(thread, agentId, true)) await this.deliver(agentId, f);
  }

  private async deliver(agentId: string, t: Trigger): Promise<void> {
    await this.message(agentId, `Follow-up on your task: ${triggerLine(t)}`).catch((error: unknown) =>
      this.note(`follow-up ${t.id} did not reach ${agentId}: ${(error as Error).message}`),
    );
  }

  private async message(agentId: string, text: string): Promise<void> {
    const { board } = this.live!.setup;
    const sent = await board.send("swarmboard", agentId, text, Date.now());
    const entry = board.board.get(sent.id);
    if (entry !== undefined) this.emit({ type: "board-entry", entry });
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

/** A recipe with a router runs only standing: outside one its router would have no triggers to dispatch. */
export function refuseRouterOutsideStanding(recipe: { name: string; roles: readonly Role[] }): void {
  if (recipe.roles.some((r) => r.name === routerRoleName))
    throw new Error(
      `The recipe ${recipe.name} has a "${routerRoleName}" role: it runs only as a standing swarm (swarmboard watch).`,
    );
}

/** The recipe's router seat and its worker role; refused with why when the recipe cannot stand. */
function standingSeats(setup: SwarmSetup): { router: Seat; worker: Seat; workerSeats: number } {
  const seats = setup.plan.stages.flat();
  const router = seats.find((s) => s.role.name === routerRoleName);
  const workers = seats.filter((s) => s.role.name !== routerRoleName);
  const name = setup.options.recipe.name;
  if (router === undefined || workers.length === 0)
    throw new Error(
      `The recipe ${name} cannot run as a standing swarm: it needs a role named "${routerRoleName}" and a working ` +
        'role (see the built-in "watch" recipe).',
    );
  assertDispatchOnly(router.role.tools);
  return { router, worker: workers[0]!, workerSeats: workers.length };
}

/** The router's tools: its dispatch tools bound to the desk, and finish; nothing else (checked again here). */
function routerSeatTools(role: Role, desk: RouterDesk): CatalogTool[] {
  const bound = new Map(routerTools(desk).map((t) => [t.name, t]));
  const tools = toolsForRole(role, false, false).map((t) => bound.get(t.name) ?? t);
  assertDispatchOnly(tools.map((t) => t.name));
  return tools;
}

async function writeBrief(setup: SwarmSetup, id: string, text: string): Promise<void> {
  const dir = path.join(setup.options.stateDir, "briefs");
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `${id}.txt`), text);
}

/** Resolves when the swarm stops (its signal, or the wall clock's fan-in). */
function untilStopped(signal: AbortSignal, stopped: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || stopped()) return resolve();
    const timer = setInterval(() => {
      if (stopped()) done();
    }, 1_000);
    const done = () => {
      clearInterval(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    signal.addEventListener("abort", done, { once: true });
  });
}
