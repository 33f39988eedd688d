// The trigger inbox of a standing swarm: takes a trigger (parsed by its schema), gives it an id, a fingerprint and
// a time when it brought none, lets the fast path judge it, writes it to the trigger log (fsynced) and only then
// acts: a follow-up goes to its thread's owner, new work to the router. A trigger id seen before is not taken
// twice, so a source may replay (a recorded stream read again after a restart). Takes run one at a time, in order.
import { defaultFingerprint, TriggerFastPath } from "../../core/triggerFastPath";
import { TriggerThreads } from "../../core/triggerThreads";
import { SerialQueue } from "../../core/serialQueue";
import { formatZodIssues } from "../../protocol/zodIssues";
import {
  triggerInputSchema,
  type FastPathRoute,
  type RouterDecision,
  type TakenTrigger,
  type Trigger,
  type TriggerLogLine,
  type TriggerRules,
} from "../../protocol/triggers";
import type { TriggerLogFile } from "./triggerLog";

/** Where the inbox sends what it took. */
export interface InboxRouting {
  /** A follow-up for the agent that owns its thread (a message it reads at its next tool return). */
  deliver(agentId: string, trigger: Trigger): Promise<void>;
  /** New work for the router. */
  toRouter(trigger: Trigger): void;
  /** Every trigger taken, with its route (the views show it). */
  taken(trigger: Trigger, route: FastPathRoute): void;
}

/** What a restart found in the log: work to pick up again. */
export interface RecoveredTriggers {
  /** Sent to the router and not decided (or held): the router gets them again. */
  readonly forRouter: Trigger[];
  /** Assigned to a worker that never ended (the old process died): a fresh worker takes each. */
  readonly toAssign: Array<{ readonly trigger: Trigger; readonly task: string }>;
  /** The highest agent number the log names (new agents are numbered past it, so no id is reused). */
  readonly lastAgentNumber: number;
}

export class TriggerInbox {
  private readonly taken = new Map<string, Trigger>();
  private readonly routes = new Map<string, FastPathRoute>();
  /** Follow-ups waiting for their thread's owner, by thread. */
  private readonly parked = new Map<string, Trigger[]>();
  /** Takes run one at a time: a follow-up is parked or sent before the next trigger is looked at. */
  private readonly takes = new SerialQueue();
  private routing: InboxRouting | undefined;
  private counter = 0;

  readonly fastPath: TriggerFastPath;

  constructor(
    private readonly log: TriggerLogFile,
    rules: TriggerRules,
    private readonly now: () => number,
  ) {
    this.fastPath = new TriggerFastPath(rules, new TriggerThreads());
  }

  get threads(): TriggerThreads {
    return this.fastPath.threads;
  }

  /** Rebuilds the state the log holds (the routes recorded, never judged again) and says what to pick up. */
  restore(): RecoveredTriggers {
    const decided = new Map<string, RouterDecision>();
    const started = new Map<string, string>();
    let lastAgentNumber = 0;
    for (const line of this.log.lines) {
      this.counter++;
      if (line.kind === "trigger") this.remember(line.trigger, line.route);
      else if (line.kind === "decision") {
        decided.set(line.triggerId, line.decision);
        if (line.decision.action === "reply" || line.decision.action === "drop") this.closeThread(line.triggerId);
      } else if (line.kind === "worker") {
        lastAgentNumber = Math.max(lastAgentNumber, Number(/(\d+)$/.exec(line.agentId)?.[1] ?? 0));
        if (line.state === "started") started.set(line.thread, line.agentId);
        else {
          started.delete(line.thread);
          decided.delete(line.thread);
          this.closeThread(line.thread);
        }
      } else this.unpark(line.triggerId);
    }
    const forRouter: Trigger[] = [];
    const toAssign: Array<{ trigger: Trigger; task: string }> = [];
    for (const [id, route] of this.routes) {
      if (route.route !== "router" || this.threads.get(id) === undefined) continue;
      const decision = decided.get(id);
      const trigger = this.taken.get(id)!;
      if (decision === undefined || decision.action === "hold") forRouter.push(trigger);
      else if (decision.action === "assign") toAssign.push({ trigger, task: decision.task });
      // A forward's agent died with the old process: its thread ends with it.
      else this.closeThread(id);
    }
    return { forRouter, toAssign, lastAgentNumber };
  }

  /** Starts acting on what is taken (the swarm is running). */
  connect(routing: InboxRouting): void {
    this.routing = routing;
  }

  /** Takes one trigger (raw input, checked here); throws with what was wrong for bad input, taking nothing. */
  take(raw: unknown): Promise<TakenTrigger> {
    const parsed = triggerInputSchema.safeParse(raw);
    if (!parsed.success)
      return Promise.reject(new Error(`not a trigger: ${formatZodIssues(parsed.error, "(trigger)")}`));
    return this.takes.run(() => this.takeNow(parsed.data));
  }

  private async takeNow(input: ReturnType<typeof triggerInputSchema.parse>): Promise<TakenTrigger> {
    const known = input.id === undefined ? undefined : this.taken.get(input.id);
    if (known !== undefined) return { trigger: known, route: this.routes.get(known.id)!, duplicate: true };
    const time = input.time ?? this.now();
    const trigger: Trigger = {
      ...input,
      id: input.id ?? `trigger-${time}-${++this.counter}`,
      fingerprint: input.fingerprint ?? defaultFingerprint(input),
      time,
    };
    const route = this.fastPath.decide(trigger);
    await this.log.append({ kind: "trigger", trigger, route });
    this.remember(trigger, route, false);
    this.routing?.taken(trigger, route);
    if (route.route === "direct") await this.routing?.deliver(route.agentId, trigger);
    if (route.route === "router") this.routing?.toRouter(trigger);
    return { trigger, route, duplicate: false };
  }

  /** Writes a line of the standing swarm's own (a decision, a worker's start or end). */
  record(line: TriggerLogLine): Promise<void> {
    return this.log.append(line);
  }

  /** The trigger with this id, when it was taken. */
  get(id: string): Trigger | undefined {
    return this.taken.get(id);
  }

  /**
   * Hands a thread's parked follow-ups to `agentId` (logged as delivered); when `own`, the thread is the agent's
   * from now on and later follow-ups go to it directly.
   */
  handOver(thread: string, agentId: string, own: boolean): Promise<Trigger[]> {
    // In the takes' queue: a follow-up being taken now is parked or sent, never lost between the two.
    return this.takes.run(() => this.handOverNow(thread, agentId, own));
  }

  private async handOverNow(thread: string, agentId: string, own: boolean): Promise<Trigger[]> {
    const waiting = this.parked.get(thread) ?? [];
    this.parked.delete(thread);
    for (const t of waiting) await this.log.append({ kind: "delivered", triggerId: t.id, agentId, time: this.now() });
    if (own) this.threads.own(thread, agentId);
    return waiting;
  }

  /** A thread ended (its worker ended, the router dropped or answered it); parked follow-ups end with it. */
  closeThread(thread: string): void {
    this.threads.close(thread);
    this.parked.delete(thread);
  }

  private remember(trigger: Trigger, route: FastPathRoute, replayed = true): void {
    this.taken.set(trigger.id, trigger);
    this.routes.set(trigger.id, route);
    if (replayed) this.fastPath.apply(trigger, route);
    if (route.route === "parked") this.parked.set(route.thread, [...(this.parked.get(route.thread) ?? []), trigger]);
  }

  private unpark(triggerId: string): void {
    for (const [thread, list] of this.parked) {
      const kept = list.filter((t) => t.id !== triggerId);
      if (kept.length === 0) this.parked.delete(thread);
      else this.parked.set(thread, kept);
    }
  }
}
