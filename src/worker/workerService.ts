// What the worker serves to the host: swarms (start, stop, stop an agent, answer an approval, the event stream;
// steering in steeringService.ts, triggers and saves in standingService.ts) and what needs no swarm (review and
// models: reviewAndModelRpc.ts). Many swarms run at once (swarmSlot.ts); the model stays loaded between swarms.
import path from "node:path";
import { HandlerError } from "../core/rpc/rpcPeer";
import type { ServicePeer } from "../core/rpc/servicePeer";
import { DisposableStore, type Disposable } from "../core/disposable";
import type { SwarmEvent } from "../protocol/swarmEvents";
import {
  answerApprovalMethod,
  startSwarmMethod,
  stopAgentMethod,
  stopSwarmMethod,
  swarmEventsNotification,
  type StartSwarmParams,
  type ThisRunOnly,
} from "../protocol/swarmRpc";
import { workerLogNotification } from "../protocol/workerRpc";
import {
  cleanUpSwarmMethod,
  listSwarmsMethod,
  pastSwarmEventsMethod,
  resumeSwarmMethod,
  type ResumeSwarmParams,
} from "../protocol/swarmHistoryRpc";
import { EventsTrace } from "./eventsTrace";
import { cleanUp, listSwarms, recordedEvents, resumableRecord } from "./historyService";
import { recordSwarmEnd } from "./swarmRecords";
import { prepareLaunch, startLaunch, type LaunchSurface, type PreparedLaunch } from "./swarmLauncher";
import { serveMemory } from "./memoryService";
import { serveModels, serveReview } from "./reviewAndModelRpc";
import { SwarmApprovals } from "./swarm/swarmApprovals";
import type { SwarmSession } from "./swarm/swarmSession";
import { SwarmSlot } from "./swarmSlot";
import { serveStanding } from "./standingService";
import { serveSteering } from "./steeringService";

/** Approvals that go out as `approval-request` events on the swarm's stream, and end as `approval-ended`. */
function swarmApprovals(swarmId: string, emit: (event: SwarmEvent) => void): SwarmApprovals {
  return new SwarmApprovals(
    (req) =>
      emit({
        type: "approval-request",
        swarmId,
        time: Date.now(),
        requestId: req.id,
        agentId: req.agent,
        command: req.command,
        cwd: req.cwd,
        reason: req.reasons.join("; "),
      }),
    (req, outcome) =>
      emit({ type: "approval-ended", swarmId, time: Date.now(), requestId: req.id, agentId: req.agent, outcome }),
  );
}

/** A launch's options for this run alone (not saved): a standing swarm's trigger streams join its saved options. */
function thisRunsOptions(prepared: PreparedLaunch, only: ThisRunOnly): LaunchSurface<SwarmApprovals>["options"] {
  const { standing } = prepared.inputs;
  return {
    ...(only.thinkingTokens ? { thinkingTokens: only.thinkingTokens } : {}),
    ...(standing && only.triggerFiles ? { standing: { ...standing, triggerFiles: only.triggerFiles } } : {}),
  };
}

interface RunningSwarm {
  readonly session: SwarmSession;
  readonly approvals: SwarmApprovals;
  readonly trace: EventsTrace;
}

export class WorkerService implements Disposable {
  private readonly store = new DisposableStore();
  private readonly swarms = new SwarmSlot<RunningSwarm>();
  /** Set once the worker takes no new swarm: why, as a launch is told. */
  private refusal: string | undefined;

  constructor(private readonly peer: ServicePeer) {
    const s = this.store;
    s.add(peer.handle(startSwarmMethod, (p) => this.start(p)));
    s.add(peer.handle(listSwarmsMethod, ({ workspace }) => listSwarms(workspace)));
    s.add(
      peer.handle(pastSwarmEventsMethod, ({ workspace, swarmId, traceBytes }) =>
        recordedEvents(workspace, swarmId, traceBytes),
      ),
    );
    s.add(peer.handle(resumeSwarmMethod, (p) => this.resume(p)));
    for (const method of serveMemory(peer)) s.add(method);
    s.add(
      peer.handle(cleanUpSwarmMethod, ({ workspace, swarmId, confirm }) => {
        if (this.swarms.has(swarmId))
          throw new HandlerError("swarm-running", `Swarm ${swarmId} is running: stop it before cleaning it up.`);
        return cleanUp(workspace, swarmId, confirm);
      }),
    );
    s.add(
      peer.handle(stopSwarmMethod, ({ swarmId }) => {
        const swarm = this.swarms.get(swarmId);
        swarm?.session.stop();
        return { stopping: swarm !== undefined };
      }),
    );
    s.add(
      peer.handle(stopAgentMethod, ({ swarmId, agentId }) => ({
        stopping: this.swarms.get(swarmId)?.session.stopAgent(agentId) ?? false,
      })),
    );
    for (const served of serveSteering(peer, (swarmId) => this.swarms.get(swarmId)?.session)) s.add(served);
    for (const served of serveStanding(peer, (swarmId) => this.swarms.get(swarmId)?.session)) s.add(served);
    s.add(
      peer.handle(answerApprovalMethod, ({ swarmId, requestId, decision }) => ({
        known: this.swarms.get(swarmId)?.approvals.answer(requestId, decision) ?? false,
      })),
    );
    for (const method of [...serveReview(peer), ...serveModels(peer)]) s.add(method);
  }

  /**
   * From now on a launch or resume is refused with `reason` (the shared worker is stopping after its swarms); the
   * swarms that run go on to their end.
   */
  refuseNewSwarms(reason: string): void {
    this.refusal = reason;
  }

  private claim<T>(begin: () => Promise<T>): Promise<T> {
    if (this.refusal !== undefined) return Promise.reject(new HandlerError("worker-stopping", this.refusal));
    return this.swarms.claim(begin);
  }

  private start(params: StartSwarmParams): Promise<{ swarmId: string }> {
    const { script, stateDir, launchedBy, thinkingTokens, triggerFiles, ...inputs } = params;
    return this.claim(async () => {
      const prepared = await prepareLaunch({
        kind: "new",
        inputs,
        stateDir: () => stateDir,
        launchedBy: launchedBy ?? "vscode",
        ...(script ? { script } : {}),
      });
      return this.launch(prepared, thisRunsOptions(prepared, { thinkingTokens, triggerFiles }));
    });
  }

  /** Continues an interrupted swarm from its saved inputs (the CLI's --resume), in this worker. */
  private resume(params: ResumeSwarmParams): Promise<{ swarmId: string; standing: boolean }> {
    return this.claim(async () => {
      const { workspace, swarmId, script, thinkingTokens, triggerFiles, ...overrides } = params;
      const record = await resumableRecord(workspace, swarmId);
      const prepared = await prepareLaunch({
        kind: "resume",
        stateDir: record.stateDir,
        overrides,
        launchedBy: record.launchedBy,
        ...(script ? { script } : {}),
      });
      const options = thisRunsOptions(prepared, { thinkingTokens, triggerFiles });
      return { ...this.launch(prepared, options), standing: prepared.inputs.standing !== undefined };
    });
  }

  private launch(prepared: PreparedLaunch, options: LaunchSurface<SwarmApprovals>["options"]): { swarmId: string } {
    for (const w of prepared.warnings) this.peer.notify(workerLogNotification, { level: "warn", message: w });
    const { recorded } = prepared;
    const { swarmId } = recorded;
    const trace = new EventsTrace(path.join(recorded.stateDir, "events.jsonl"), (message) =>
      this.peer.notify(workerLogNotification, { level: "warn", message }),
    );
    const started = startLaunch(prepared, {
      options,
      approver: (emit) => swarmApprovals(swarmId, emit),
      deliver: (events) => {
        trace.append(events);
        this.peer.notify(swarmEventsNotification, { swarmId, events });
        if (events.some((e) => e.type === "swarm-ended")) this.swarms.announceEnd(swarmId);
      },
      batchMs: 100,
    });
    // The slot is free once the session returns (its last events are already out), before its record is written.
    this.swarms.hold(swarmId, { session: started.session, approvals: started.approver, trace }, started.summary);
    void started.summary
      .then(
        (summary) => recordSwarmEnd(recorded, summary),
        async (error: unknown) => {
          this.peer.notify(workerLogNotification, {
            level: "error",
            message: `swarm ${swarmId} failed: ${(error as Error).message}`,
          });
          await recordSwarmEnd(recorded, error as Error);
        },
      )
      .catch((error: unknown) =>
        this.peer.notify(workerLogNotification, {
          level: "warn",
          message: `the record of swarm ${swarmId} could not be updated: ${(error as Error).message}`,
        }),
      );
    return { swarmId };
  }

  /**
   * Where each running swarm's trace stands now (see EventsTrace.mark): taken in this tick for all of them, resolved
   * once written. A swarm not running here has none (its trace is complete).
   */
  async traceMarks(swarmIds: readonly string[]): Promise<Record<string, number>> {
    const marks = swarmIds.flatMap((id) => {
      const trace = this.swarms.get(id)?.trace;
      return trace ? [[id, trace.mark()] as const] : [];
    });
    const marked: Record<string, number> = {};
    for (const [id, at] of marks) marked[id] = await at;
    return marked;
  }

  /** The swarms running in this worker (the shared server reports them and waits for them when it drains). */
  runningSwarmIds(): string[] {
    return this.swarms.ids();
  }

  dispose(): void {
    for (const swarm of this.swarms.all()) swarm.session.stop();
    this.store.dispose();
  }
}
