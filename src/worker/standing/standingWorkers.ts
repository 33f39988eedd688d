// The workers of a standing swarm: each assigned trigger gets a new worker forked from the trunk that owns that
// one task (its thread) until it ends. Workers start while worker seats are free, the rest wait in order. A
// worker's brief carries the follow-ups parked on its thread; once it is on the board its thread is its own and
// later follow-ups reach it as messages (read at its next tool return).
import { triggerLine, triggerTask, workerBrief } from "../../core/standingBriefs";
import type { Trigger } from "../../protocol/triggers";
import type { AgentEventDraft } from "../agent/agentEventDraft";
import type { Seat } from "../swarm/seatPlan";
import { writeBrief } from "./standingSeats";
import type { SeatEnd, SwarmSeats } from "../swarm/swarmSeats";
import type { ScheduleGround } from "../swarm/swarmRun";
import type { TriggerInbox } from "./triggerInbox";

export interface WorkerJob {
  readonly trigger: Trigger;
  readonly task: string;
}

export interface StandingWorkersDeps {
  readonly setup: Pick<ScheduleGround, "board" | "options">;
  readonly seats: SwarmSeats;
  /** The working role's seat (its role and tools). */
  readonly worker: Seat;
  /** Workers alive at once: the recipe's working seats. */
  readonly workerSeats: number;
  readonly inbox: TriggerInbox;
  readonly emit: (event: AgentEventDraft) => void;
  readonly note: (text: string) => Promise<void>;
  readonly stopped: () => boolean;
}

export class StandingWorkers {
  private readonly waiting: WorkerJob[] = [];
  /** Seats taken: forking or running, by agent id once known. */
  private starting = 0;
  private readonly running = new Map<string, string>();
  /** Briefed, not yet on the board: its thread becomes its own when it joins. */
  private readonly joining = new Map<string, string>();
  private readonly runs: Promise<void>[] = [];
  readonly ends: SeatEnd[] = [];

  constructor(private readonly deps: StandingWorkersDeps) {}

  /** Whether a new assignment has to wait for a seat. */
  full(): boolean {
    return this.starting + this.running.size >= this.deps.workerSeats;
  }

  /** The running workers and their tasks (the router's brief lists them). */
  list(): Array<{ id: string; task: string }> {
    return [...this.running].map(([id, task]) => ({ id, task }));
  }

  assign(job: WorkerJob): void {
    this.waiting.push(job);
    this.pump();
  }

  /** A worker joined the board: its thread is its own, and what was parked meanwhile reaches it as messages. */
  async joined(agentId: string): Promise<void> {
    const thread = this.joining.get(agentId);
    if (thread === undefined) return;
    this.joining.delete(agentId);
    for (const f of await this.deps.inbox.handOver(thread, agentId, true)) await this.deliver(agentId, f);
  }

  /** A follow-up for `agentId`, as a message from swarmboard. */
  async deliver(agentId: string, t: Trigger): Promise<void> {
    await this.message(agentId, `Follow-up on your task: ${triggerLine(t)}`).catch((error: unknown) =>
      this.deps.note(`follow-up ${t.id} did not reach ${agentId}: ${(error as Error).message}`),
    );
  }

  async message(agentId: string, text: string): Promise<void> {
    const { board } = this.deps.setup;
    const sent = await board.send("swarmboard", agentId, text, Date.now());
    const entry = board.board.get(sent.id);
    if (entry !== undefined) this.deps.emit({ type: "board-entry", entry });
  }

  /** Waits for every worker started so far (and those they let start) to end. */
  async settle(): Promise<void> {
    while (this.runs.length > 0) await Promise.all(this.runs.splice(0));
  }

  private pump(): void {
    while (!this.full() && this.waiting.length > 0 && !this.deps.stopped()) {
      const job = this.waiting.shift()!;
      this.starting++;
      const run = this.runWorker(job).finally(() => this.pump());
      this.runs.push(
        run.catch((error: unknown) =>
          this.deps.note(`worker for ${job.trigger.id} failed: ${(error as Error).message}`),
        ),
      );
    }
  }

  private async runWorker(job: WorkerJob): Promise<void> {
    const { seats, worker, inbox } = this.deps;
    const { trigger } = job;
    let id: string | undefined;
    try {
      const end = await seats.runFreshSeat(worker.role, worker.tools, async (agentId) => {
        id = agentId;
        this.starting--;
        this.running.set(agentId, triggerTask(trigger, job.task).title);
        return this.briefed(job, agentId);
      });
      this.ends.push(end);
      const reason = end.end.reason;
      await inbox.record({
        kind: "worker",
        thread: trigger.id,
        agentId: end.id,
        state: "ended",
        reason,
        time: Date.now(),
      });
    } finally {
      if (id === undefined) this.starting--;
      else {
        this.running.delete(id);
        this.joining.delete(id);
        inbox.closeThread(trigger.id);
        for (const thread of inbox.threads.closeOwnedBy(id)) inbox.closeThread(thread);
      }
    }
  }

  /** Records the start, takes the parked follow-ups into the brief, keeps the brief on disk. */
  private async briefed(job: WorkerJob, agentId: string): Promise<string> {
    const { inbox, worker, setup } = this.deps;
    const { trigger } = job;
    await inbox.record({ kind: "worker", thread: trigger.id, agentId, state: "started", time: Date.now() });
    const decision = { action: "assign" as const, task: job.task };
    this.deps.emit({ type: "trigger-decision", triggerId: trigger.id, by: agentId, decision, agentId });
    const followUps = await inbox.handOver(trigger.id, agentId, false);
    this.joining.set(agentId, trigger.id);
    const text = workerBrief(agentId, worker.role, triggerTask(trigger, job.task), trigger, followUps);
    await writeBrief(setup, agentId, text);
    return text;
  }
}
