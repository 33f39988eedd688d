// What the worker serves to the host: swarms (start, stop, stop an agent, answer an approval, the event
// stream), the review of a swarm's branches, and models. One swarm runs at a time per worker; the model
// stays loaded between swarms.
import { stat } from "node:fs/promises";
import { SwarmEventThrottle } from "../core/eventThrottle";
import { HandlerError, type RpcPeer } from "../core/rpc/rpcPeer";
import { DisposableStore, type Disposable } from "../core/disposable";
import type { SwarmEvent } from "../protocol/swarmEvents";
import {
  answerApprovalMethod,
  branchDiffMethod,
  changedFilesMethod,
  discardBranchMethod,
  fileAtRefMethod,
  listBranchesMethod,
  mergeBranchMethod,
  modelFactsMethod,
  pullModelMethod,
  pullProgressNotification,
  startSwarmMethod,
  stopAgentMethod,
  stopSwarmMethod,
  swarmEventsNotification,
  type StartSwarmParams,
} from "../protocol/swarmRpc";
import { workerLogNotification } from "../protocol/workerRpc";
import { loadSwarmModel } from "../runtime/loadModel";
import { pullModelFile } from "./modelFiles";
import { resolveRecipe } from "./recipeResolve";
import { reviewService } from "./reviewService";
import { SwarmApprovals } from "./swarmApprovals";
import { SwarmSession } from "./swarmSession";

interface RunningSwarm {
  readonly session: SwarmSession;
  readonly approvals: SwarmApprovals;
}

export class WorkerService implements Disposable {
  private readonly store = new DisposableStore();
  private readonly swarms = new Map<string, RunningSwarm>();

  constructor(private readonly peer: RpcPeer) {
    const s = this.store;
    s.add(peer.handle(startSwarmMethod, (p) => this.start(p)));
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
    s.add(
      peer.handle(answerApprovalMethod, ({ swarmId, requestId, decision }) => ({
        known: this.swarms.get(swarmId)?.approvals.answer(requestId, decision) ?? false,
      })),
    );
    s.add(peer.handle(listBranchesMethod, (t) => reviewService.branches(t)));
    s.add(peer.handle(changedFilesMethod, (t) => reviewService.changedFiles(t, t.branch)));
    s.add(peer.handle(fileAtRefMethod, (t) => reviewService.fileAtRef(t, t.ref, t.path)));
    s.add(peer.handle(branchDiffMethod, (t) => reviewService.diff(t, t.branch)));
    s.add(peer.handle(mergeBranchMethod, (t) => reviewService.merge(t, t.branch)));
    s.add(peer.handle(discardBranchMethod, (t) => reviewService.discard(t, t.agentId)));
    s.add(peer.handle(modelFactsMethod, (p) => this.modelFacts(p.modelPath, p.threads, p.kvCells)));
    s.add(
      peer.handle(pullModelMethod, async ({ uri, dir }, signal) => ({
        path: await pullModelFile(uri, dir, (p) => peer.notify(pullProgressNotification, { uri, ...p }), signal),
      })),
    );
  }

  private async start(params: StartSwarmParams): Promise<{ swarmId: string }> {
    const { recipe, warnings } = await resolveRecipe(params.recipe, params.workspace);
    for (const w of warnings) this.peer.notify(workerLogNotification, { level: "warn", message: w });
    const swarmId = `${recipe.name}-${Date.now().toString(36)}`.replace(/[^a-z0-9-]/g, "-");
    if (this.swarms.size > 0)
      throw new HandlerError(
        "swarm-running",
        "A swarm is already running in this worker; stop it before launching another.",
      );
    const throttle = new SwarmEventThrottle(
      (events) => this.peer.notify(swarmEventsNotification, { swarmId, events }),
      100,
      { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout) },
    );
    const push = (e: SwarmEvent) => throttle.push(e);
    const approvals = new SwarmApprovals((req) =>
      push({
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
    const session = new SwarmSession(
      {
        swarmId,
        goal: params.goal,
        recipe,
        modelPath: params.modelPath,
        workspace: params.workspace,
        stateDir: params.stateDir,
        threads: params.threads,
        approver: approvals,
        policy: params.policy,
        ...(params.agents ? { agents: params.agents } : {}),
        ...(params.kvCells ? { kvCells: params.kvCells } : {}),
        ...(params.budgetMs ? { budgetMs: params.budgetMs } : {}),
        ...(params.script ? { script: params.script } : {}),
        ...(params.agentRules !== undefined ? { agentRules: params.agentRules } : {}),
      },
      push,
    );
    this.swarms.set(swarmId, { session, approvals });
    void session
      .run()
      .catch((error: unknown) => {
        this.peer.notify(workerLogNotification, {
          level: "error",
          message: `swarm ${swarmId} failed: ${(error as Error).message}`,
        });
      })
      .finally(() => {
        throttle.flush();
        this.swarms.delete(swarmId);
      });
    return { swarmId };
  }

  private async modelFacts(modelPath: string, threads: number, kvCells: number) {
    const model = await loadSwarmModel({ modelPath, threads });
    const shared = await model.supportsSharedCells();
    const fileBytes = (await stat(modelPath)).size;
    const trunk = 2048;
    const tail = 1024;
    const agentsThatFit = shared
      ? Math.max(0, Math.floor((kvCells - trunk) / tail))
      : Math.max(0, Math.floor(kvCells / (trunk + tail)));
    return {
      facts: model.facts,
      mode: shared ? ("shared-cells" as const) : ("copy-mode" as const),
      fileBytes,
      agentsThatFit,
      poolBytes: kvCells * model.facts.kvBytesPerCell,
    };
  }

  dispose(): void {
    for (const swarm of this.swarms.values()) swarm.session.stop();
    this.store.dispose();
  }
}
