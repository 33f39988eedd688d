// The host's one evented model of the swarms: the worker's event stream folded by the pure reducer of
// src/core/swarmView.ts. The tree, the panel, the status bar and the editor's findings all read it and
// listen to `onDidChange`; none of them keeps a copy of its own.
import * as vscode from "vscode";
import { DisposableBase } from "../../core/disposable";
import { emptySwarm, reduceSwarm, withoutApproval } from "../../core/swarmView";
import type { SwarmEvent } from "../../protocol/swarmEvents";
import { swarmEventsNotification, type StartSwarmParams } from "../../protocol/swarmRpc";
import type { WorkerProcess } from "../workerProcess";
import { withUsageSample } from "./usageSamples";
import { interruptedView, isRunning, type HostSwarmView } from "./swarmStatus";

export interface SwarmChange {
  readonly swarmId: string;
  /** Event types folded in this change (views use it to skip work). */
  readonly types: ReadonlySet<SwarmEvent["type"]>;
}

/** Where a swarm works, remembered from its launch or its record (review, resume and clean-up need it). */
export interface SwarmPlace {
  readonly workspace: string;
  readonly stateDir: string;
  /** Absent for a past swarm: this window did not launch it. */
  readonly params?: StartSwarmParams;
}

export class SwarmStore extends DisposableBase {
  private readonly views = new Map<string, HostSwarmView>();
  private readonly places = new Map<string, SwarmPlace>();
  /** Live events of swarms whose state so far is being read back (a reload's catch-up), folded after it. */
  private readonly held = new Map<string, SwarmEvent[]>();
  private readonly emitter = this.register(new vscode.EventEmitter<SwarmChange>());
  readonly onDidChange = this.emitter.event;

  constructor(worker: WorkerProcess) {
    super();
    this.register(
      worker.onNotification(swarmEventsNotification, ({ swarmId, events }) => {
        const held = this.held.get(swarmId);
        if (held) held.push(...events);
        else this.apply(swarmId, events);
      }),
    );
  }

  /**
   * From now on `swarmId`'s live events wait for `release`: its trace is being read, and they come after what it
   * holds (folded before it, they would be overwritten by the read-back view).
   */
  hold(swarmId: string): void {
    if (!this.held.has(swarmId)) this.held.set(swarmId, []);
  }

  /** Folds the events held for `swarmId` onto its view (remembered by now) and lets the next ones straight through. */
  release(swarmId: string): void {
    const events = this.held.get(swarmId);
    this.held.delete(swarmId);
    if (events !== undefined && events.length > 0) this.apply(swarmId, events);
  }

  /** Records a launched swarm before its first event arrives. */
  launched(swarmId: string, place: Required<SwarmPlace>): void {
    this.places.set(swarmId, place);
    if (!this.views.has(swarmId))
      this.views.set(swarmId, {
        ...emptySwarm(swarmId, Date.now()),
        goal: place.params.goal,
        recipe: place.params.recipe,
      });
    this.emitter.fire({ swarmId, types: new Set() });
  }

  /**
   * A swarm read back from the repository's history. A swarm this window runs or ran keeps its own view (the
   * live stream knows more than the record); a past one is replaced by the newer reading.
   */
  remember(view: HostSwarmView, place: SwarmPlace): boolean {
    const known = this.views.get(view.id);
    if (known !== undefined && known.past === undefined) return false;
    this.views.set(view.id, view);
    if (!this.places.has(view.id)) this.places.set(view.id, place);
    this.emitter.fire({ swarmId: view.id, types: new Set() });
    return true;
  }

  /**
   * The swarm is being resumed: it is live again from here on (no interruption, no past record), and keeps its
   * agents and findings until the resumed run's events update them. Returns the view before, to restore on failure.
   */
  resuming(swarmId: string): HostSwarmView | undefined {
    const before = this.views.get(swarmId);
    if (!before) return undefined;
    const { interrupted: _i, past: _p, endedAt: _e, endReason: _r, ...rest } = before;
    this.views.set(swarmId, { ...rest, status: "starting", startedAt: Date.now() });
    this.emitter.fire({ swarmId, types: new Set() });
    return before;
  }

  /** Puts back a view (a resume that the worker refused), or sets one brought up to date (a rejoined connection). */
  restore(view: HostSwarmView): void {
    this.views.set(view.id, view);
    this.emitter.fire({ swarmId: view.id, types: new Set() });
  }

  /** Its branches and worktrees were removed. */
  cleanedUp(swarmId: string, at: number): void {
    const view = this.views.get(swarmId);
    if (!view) return;
    this.views.set(swarmId, { ...view, cleanedUpAt: at });
    this.emitter.fire({ swarmId, types: new Set() });
  }

  apply(swarmId: string, events: readonly SwarmEvent[]): void {
    let view: HostSwarmView = this.views.get(swarmId) ?? emptySwarm(swarmId, events[0]?.time ?? Date.now());
    const types = new Set<SwarmEvent["type"]>();
    for (const e of events) {
      view = reduceSwarm(view, e);
      if (e.type === "agent-added" && e.agent.parent !== undefined)
        view = { ...view, subAgents: [...(view.subAgents ?? []), e.agent.id] };
      if (e.type === "kv-stats") view = { ...view, usage: withUsageSample(view.usage, e.stats, e.time) };
      types.add(e.type);
    }
    this.views.set(swarmId, view);
    this.emitter.fire({ swarmId, types });
  }

  /** The worker died while the swarm ran: it ends as interrupted and keeps no live state (cells, lanes, approvals). */
  interrupt(swarmId: string, reason: string): boolean {
    const view = this.views.get(swarmId);
    if (!view || !isRunning(view)) return false;
    this.views.set(swarmId, interruptedView(view, reason, Date.now()));
    this.emitter.fire({ swarmId, types: new Set(["swarm-ended", "kv-stats"]) });
    return true;
  }

  approvalAnswered(swarmId: string, requestId: string): void {
    const view = this.views.get(swarmId);
    if (!view) return;
    this.views.set(swarmId, withoutApproval(view, requestId));
    this.emitter.fire({ swarmId, types: new Set(["approval-request"]) });
  }

  swarm(id: string): HostSwarmView | undefined {
    return this.views.get(id);
  }

  place(id: string): SwarmPlace | undefined {
    return this.places.get(id);
  }

  /** Every swarm of this window, newest first. */
  swarms(): HostSwarmView[] {
    return [...this.views.values()].sort((a, b) => b.startedAt - a.startedAt);
  }

  /** The swarm shown by default: the running one, else the newest this window ran (a past one is not "current"). */
  current(): HostSwarmView | undefined {
    const all = this.swarms();
    return all.find(isRunning) ?? all.find((s) => s.past === undefined);
  }
}
