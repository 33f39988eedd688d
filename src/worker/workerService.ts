// What the worker serves to the host: swarms (start, stop, stop an agent, answer an approval, the event stream;
// steering in steeringService.ts, triggers and saves in standingService.ts) and what needs no swarm (review and
// models: reviewAndModelRpc.ts). One swarm runs at a time per worker; the model stays loaded between swarms.
import path from "node:path";
import { HandlerError } from "../core/rpc/rpcPeer";
import type { ServicePeer } from "../core/rpc/servicePeer";
import { DisposableStore, type Disposable } from "../core/disposable";
import type { SwarmEvent } from "../protocol/swarmEvents";
import { withoutApiKey } from "../protocol/engine";
import type { SwarmEngine } from "../runtime/engines";
import { checkEngineReady } from "./engineCheck";
import {
  answerApprovalMethod,
  startSwarmMethod,
  stopAgentMethod,
  stopSwarmMethod,
  swarmEventsNotification,
  type StartSwarmParams,
} from "../protocol/swarmRpc";
import { workerLogNotification } from "../protocol/workerRpc";
import {
  cleanUpSwarmMethod,
  listSwarmsMethod,
  pastSwarmEventsMethod,
  resumeSwarmMethod,
  type ResumeSwarmParams,
} from "../protocol/swarmHistoryRpc";
import type { Recipe } from "../protocol/recipe";
import { defaultPolicyRules } from "./swarm/defaultPolicy";
import { EventsTrace } from "./eventsTrace";
import { cleanUp, listSwarms, recordedEvents, resumableRecord } from "./historyService";
import { readSavedSwarm, recordNewSwarm, recordResumedSwarm, recordSwarmEnd, type RecordedSwarm } from "./swarmRecords";
import { serveMemory } from "./memoryService";
import { modelToolCallingRefusal } from "./modelFiles";
import { resolveRecipe } from "./swarm/recipeResolve";
import { serveModels, serveReview } from "./reviewAndModelRpc";
import { SwarmApprovals } from "./swarm/swarmApprovals";
import type { SwarmSession } from "./swarm/swarmSession";
import { startSwarm, type SwarmLaunchOptions } from "./startSwarm";
import { SwarmSlot } from "./swarmSlot";
import { serveStanding } from "./standingService";
import { serveSteering } from "./steeringService";

/** Approvals that go out as `approval-request` events on the swarm's stream. */
function swarmApprovals(swarmId: string, emit: (event: SwarmEvent) => void): SwarmApprovals {
  return new SwarmApprovals((req) =>
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
  );
}

/** What a launch needs beyond the id and the approver, from a start request or from a resumed swarm's saved inputs. */
type LaunchInput = Omit<SwarmLaunchOptions, "swarmId" | "recipe"> & { recipe: Recipe };

interface RunningSwarm {
  readonly session: SwarmSession;
  readonly approvals: SwarmApprovals;
}

export class WorkerService implements Disposable {
  private readonly store = new DisposableStore();
  private readonly swarms = new SwarmSlot<RunningSwarm>();

  constructor(private readonly peer: ServicePeer) {
    const s = this.store;
    s.add(peer.handle(startSwarmMethod, (p) => this.start(p)));
    s.add(peer.handle(listSwarmsMethod, ({ workspace }) => listSwarms(workspace)));
    s.add(peer.handle(pastSwarmEventsMethod, ({ workspace, swarmId }) => recordedEvents(workspace, swarmId)));
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

  private async start(params: StartSwarmParams): Promise<{ swarmId: string }> {
    return this.swarms.claim(async () => {
      const { recipe, warnings } = await resolveRecipe(params.recipe, params.workspace);
      for (const w of warnings) this.peer.notify(workerLogNotification, { level: "warn", message: w });
      if (params.script === undefined) await refuseWithoutToolCalling(params.modelPath);
      const checkedEngine = await refuseUnreadyEngine(params.engine, params.modelPath);
      const { script: _script, stateDir, engine, ...rest } = params;
      // The API key never reaches the disk: the saved inputs name the engine without it.
      const inputs = { ...rest, ...(engine ? { engine: withoutApiKey(engine) } : {}) };
      const recorded = await recordNewSwarm({ recipe, inputs, stateDir: () => stateDir, launchedBy: "vscode" });
      return this.launch(recorded, { ...params, recipe, resume: false, ...(checkedEngine ? { checkedEngine } : {}) });
    });
  }

  /** Continues an interrupted swarm from its saved inputs (the CLI's --resume), in this worker. */
  private resume(params: ResumeSwarmParams): Promise<{ swarmId: string; standing: boolean }> {
    return this.swarms.claim(() => this.resumeRecorded(params));
  }

  private async resumeRecorded(params: ResumeSwarmParams): Promise<{ swarmId: string; standing: boolean }> {
    const record = await resumableRecord(params.workspace, params.swarmId);
    const saved = await readSavedSwarm(record.stateDir);
    const { inputs } = saved;
    if (params.script === undefined) await refuseWithoutToolCalling(params.modelPath ?? inputs.modelPath);
    const checkedEngine = await refuseUnreadyEngine(
      params.engine ?? inputs.engine,
      params.modelPath ?? inputs.modelPath,
    );
    const recorded = await recordResumedSwarm(saved, record.stateDir, record.launchedBy);
    const askUserTimeoutSeconds = params.askUserTimeoutSeconds ?? inputs.askUserTimeoutSeconds;
    const launched = this.launch(recorded, {
      goal: inputs.goal,
      recipe: saved.recipe,
      modelPath: params.modelPath ?? inputs.modelPath,
      workspace: inputs.workspace,
      stateDir: record.stateDir,
      threads: params.threads ?? inputs.threads,
      policy: inputs.policy ?? defaultPolicyRules,
      resume: true,
      ...(checkedEngine ? { checkedEngine } : {}),
      ...(inputs.agents ? { agents: inputs.agents } : {}),
      ...(inputs.kvCells ? { kvCells: inputs.kvCells } : {}),
      ...(inputs.sparseCheckoutAboveMiB !== undefined ? { sparseCheckoutAboveMiB: inputs.sparseCheckoutAboveMiB } : {}),
      ...(inputs.gpu ? { gpu: inputs.gpu } : {}),
      ...(inputs.kvCacheType ? { kvCacheType: inputs.kvCacheType } : {}),
      ...((params.engine ?? inputs.engine) ? { engine: params.engine ?? inputs.engine } : {}),
      ...(inputs.budgetMs ? { budgetMs: inputs.budgetMs } : {}),
      ...(inputs.web ? { web: inputs.web } : {}),
      ...(inputs.standing ? { standing: inputs.standing } : {}),
      ...(askUserTimeoutSeconds !== undefined ? { askUserTimeoutSeconds } : {}),
      ...(params.script ? { script: params.script } : {}),
    });
    return { ...launched, standing: inputs.standing !== undefined };
  }

  private launch(recorded: RecordedSwarm, run: LaunchInput): { swarmId: string } {
    const { swarmId } = recorded;
    const trace = new EventsTrace(path.join(run.stateDir, "events.jsonl"), (message) =>
      this.peer.notify(workerLogNotification, { level: "warn", message }),
    );
    const started = startSwarm({
      options: { ...run, swarmId },
      approver: (emit) => swarmApprovals(swarmId, emit),
      deliver: (events) => {
        trace.append(events);
        this.peer.notify(swarmEventsNotification, { swarmId, events });
        if (events.some((e) => e.type === "swarm-ended")) this.swarms.announceEnd(swarmId);
      },
      batchMs: 100,
    });
    // The slot is free once the session returns (its last events are already out), before its record is written.
    this.swarms.hold(swarmId, { session: started.session, approvals: started.approver }, started.summary);
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

  /** The swarms running in this worker (the shared server reports them and waits for them when it drains). */
  runningSwarmIds(): string[] {
    return this.swarms.ids();
  }

  dispose(): void {
    for (const swarm of this.swarms.all()) swarm.session.stop();
    this.store.dispose();
  }
}

/** A remote engine that cannot serve the swarm is refused with its own code and message, before anything starts. */
async function refuseUnreadyEngine(
  engine: StartSwarmParams["engine"],
  modelPath: string,
): Promise<SwarmEngine | undefined> {
  return checkEngineReady(engine, modelPath).catch((error: Error & { code?: string }) => {
    throw new HandlerError(error.code ?? "engine-unready", error.message);
  });
}

/** Agents that generate freely act only through tool calls: a model that cannot make them is refused up front. */
async function refuseWithoutToolCalling(modelPath: string): Promise<void> {
  const refusal = await modelToolCallingRefusal(modelPath);
  if (refusal !== undefined) throw new HandlerError("model-cannot-call-tools", refusal);
}
