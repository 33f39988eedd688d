// The swarms of `swarmboard mcp`: the worker's own service (src/worker/workerService.ts, the one the
// extension's palette launch reaches) runs in this process behind an in-process envelope, so an MCP launch
// takes the same `swarm/start` path. Its event stream is folded by the core reducer the extension uses, and
// approvals are answered unattended (nobody is there to ask), as the headless `run` does. With --server the same
// requests go to the user's shared worker instead, so a delegation's swarms run beside a window's on one model.
import type { GpuSetting, KvCacheType } from "../protocol/runtime";
import { existsSync, mkdirSync, rmdirSync } from "node:fs";
import path from "node:path";
import { DisposableStore } from "../core/disposable";
import { findingsText, isRunning, pickSwarm, statusText } from "../core/delegationText";
import { addTask, answerQuestion, messageSwarm, sendTrigger, type TalkAnswer } from "../core/swarmTalk";
import { RpcPeer, toErrorData } from "../core/rpc/rpcPeer";
import { createInProcessTransportPair } from "../core/rpc/transport";
import { emptySwarm, reduceSwarm, type SwarmViewState } from "../core/swarmView";
import type { FindingsToolInput, LaunchToolInput, StatusToolInput, StopToolInput } from "../protocol/delegationTools";
import type { SwarmEvent } from "../protocol/swarmEvents";
import { answerApprovalMethod, startSwarmMethod, stopSwarmMethod, swarmEventsNotification } from "../protocol/swarmRpc";
import type { AddTaskToolInput, AnswerToolInput, MessageToolInput, TriggerToolInput } from "../protocol/talkTools";
import type { TurnScript } from "../protocol/turnScript";
import { workerLogNotification } from "../protocol/workerRpc";
import { watchRecipeInput } from "../core/builtinRecipes";
import { defaultPolicy } from "../worker/swarm/defaultPolicy";
import { WorkerService } from "../worker/workerService";
import { newStateDirName } from "../core/stateDirNames";

export interface McpSwarmOptions {
  readonly modelPath?: string;
  readonly workspace: string;
  /** Where each swarm's state dir is made. */
  readonly stateRoot: string;
  readonly threads: number;
  readonly kvCells?: number;
  readonly gpu?: GpuSetting;
  readonly kvCacheType?: KvCacheType;
  readonly approveAsks: boolean;
  readonly agentRules: boolean;
  /** Seconds an agent's ask_user question waits for a client's answer_question; 0 (default): agents decide alone. */
  readonly askUserTimeoutSeconds?: number;
  /** Scripted turns for every launch (tests and demos). */
  readonly script?: TurnScript;
  /** Where diagnostics go (stderr: stdout is the MCP channel). */
  log(line: string): void;
}

/** A tool's answer, as the MCP server returns it. */
export interface McpAnswer {
  readonly ok: boolean;
  readonly text: string;
}

export class McpSwarms {
  private readonly store = new DisposableStore();
  private readonly views = new Map<string, SwarmViewState>();
  private readonly host: RpcPeer;

  /** `server`: the shared worker's peer (`mcp --server`); without it the worker's service runs in this process. */
  constructor(
    private readonly options: McpSwarmOptions,
    server?: RpcPeer,
  ) {
    if (server !== undefined) {
      this.host = server;
    } else {
      const [hostSide, workerSide] = createInProcessTransportPair();
      const worker = this.store.add(new RpcPeer(workerSide));
      this.store.add(new WorkerService(worker));
      this.host = this.store.add(new RpcPeer(hostSide));
    }
    this.store.add(
      this.host.onNotification(swarmEventsNotification, ({ swarmId, events }) => this.apply(swarmId, events)),
    );
    this.store.add(
      this.host.onNotification(workerLogNotification, ({ level, message }) => {
        // A swarm's failure reaches the views as its swarm-ended event (set-up failures too); this is only the log.
        options.log(`worker ${level}: ${message}`);
      }),
    );
  }

  private apply(swarmId: string, events: readonly SwarmEvent[]): void {
    let view = this.views.get(swarmId) ?? emptySwarm(swarmId, Date.now());
    for (const e of events) {
      view = reduceSwarm(view, e);
      if (e.type === "approval-request") {
        const decision = this.options.approveAsks ? "once" : "deny";
        this.options.log(`${e.agentId} asked to run \`${e.command}\`: ${decision} (unattended)`);
        void this.host.request(answerApprovalMethod, { swarmId, requestId: e.requestId, decision }).catch(() => {});
      }
    }
    this.views.set(swarmId, view);
  }

  swarms(): SwarmViewState[] {
    return [...this.views.values()].sort((a, b) => b.startedAt - a.startedAt);
  }

  async launch(input: LaunchToolInput): Promise<McpAnswer> {
    const { options } = this;
    const modelPath = options.modelPath;
    if (modelPath === undefined || !existsSync(modelPath))
      return {
        ok: false,
        text: `No model to load (${modelPath ?? "none given"}): start the server as \`swarmboard mcp --model <file.gguf>\` or set SWARMBOARD_MODEL.`,
      };
    const recipe = input.recipe ?? "organization";
    const stateDir = path.join(options.stateRoot, newStateDirName());
    mkdirSync(stateDir, { recursive: true });
    try {
      const { swarmId } = await this.host.request(startSwarmMethod, {
        goal: input.goal,
        recipe,
        modelPath,
        workspace: options.workspace,
        stateDir,
        launchedBy: "cli",
        threads: options.threads,
        policy: defaultPolicy(),
        agentRules: options.agentRules,
        // Unless the server was told a client answers (--ask-user-timeout), agents are told at once to decide alone.
        askUserTimeoutSeconds: options.askUserTimeoutSeconds ?? 0,
        // The watch recipe runs only standing: it takes triggers (send_trigger) until stopped.
        ...(recipe === watchRecipeInput.name ? { standing: {} } : {}),
        ...(input.agents ? { agents: input.agents } : {}),
        ...(options.kvCells ? { kvCells: options.kvCells } : {}),
        ...(options.gpu ? { gpu: options.gpu } : {}),
        ...(options.kvCacheType ? { kvCacheType: options.kvCacheType } : {}),
        ...(options.script ? { script: options.script } : {}),
      });
      if (!this.views.has(swarmId))
        this.views.set(swarmId, { ...emptySwarm(swarmId, Date.now()), goal: input.goal, recipe });
      options.log(`swarm ${swarmId} launched (${recipe}) in ${options.workspace}; state in ${stateDir}`);
      return {
        ok: true,
        text: [
          `Launched swarm ${swarmId} (recipe ${recipe}, ${input.agents ?? "the recipe's"} agents) on ${options.workspace}.`,
          `State (board, events, report): ${stateDir}`,
          `Read it as resources swarmboard://swarms/${swarmId}/status and swarmboard://swarms/${swarmId}/findings, or call swarmboard_status and swarmboard_findings.`,
        ].join("\n"),
      };
    } catch (err) {
      // A launch that did not start leaves no empty state dir behind (rmdir removes only an empty one).
      try {
        rmdirSync(stateDir);
      } catch {
        // It holds what the failed start wrote (a log): kept for the person to read.
      }
      const { code, message } = toErrorData(err);
      return { ok: false, text: `The swarm did not start (${code}): ${message}` };
    }
  }

  status(input: StatusToolInput): McpAnswer {
    const view = pickSwarm(this.swarms(), input.swarmId);
    return "error" in view ? { ok: false, text: view.error } : { ok: true, text: statusText(view) };
  }

  findings(input: FindingsToolInput): McpAnswer {
    const view = pickSwarm(this.swarms(), input.swarmId);
    if ("error" in view) return { ok: false, text: view.error };
    try {
      return { ok: true, text: findingsText(view, input) };
    } catch (err) {
      return { ok: false, text: (err as Error).message };
    }
  }

  async stop(input: StopToolInput): Promise<McpAnswer> {
    const view = pickSwarm(this.swarms(), input.swarmId);
    if ("error" in view) return { ok: false, text: view.error };
    if (!isRunning(view)) return { ok: false, text: `Swarm ${view.id} is not running (${view.status}).` };
    const { stopping } = await this.host.request(stopSwarmMethod, { swarmId: view.id });
    return stopping
      ? { ok: true, text: `Stopping swarm ${view.id}: its agents stop at their next step and the synthesist fans in.` }
      : { ok: false, text: `Swarm ${view.id} is no longer running.` };
  }

  /** The talk tools: each reaches the worker's own steering or trigger method for the swarm. */
  message(input: MessageToolInput): Promise<TalkAnswer> {
    return messageSwarm(this.host, this.swarms(), input);
  }

  addTask(input: AddTaskToolInput): Promise<TalkAnswer> {
    return addTask(this.host, this.swarms(), input);
  }

  answer(input: AnswerToolInput): Promise<TalkAnswer> {
    return answerQuestion(this.host, this.swarms(), input);
  }

  trigger(input: TriggerToolInput): Promise<TalkAnswer> {
    return sendTrigger(this.host, this.swarms(), input);
  }

  dispose(): void {
    this.store.dispose();
  }
}
