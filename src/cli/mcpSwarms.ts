// The swarms of `swarmboard mcp`: the worker's own service (src/worker/workerService.ts, the one the
// extension's palette launch reaches) runs in this process behind an in-process envelope, so an MCP launch
// takes the same `swarm/start` path. Its event stream is folded by the core reducer the extension uses, and
// approvals are answered unattended (nobody is there to ask), as the headless `run` does. With --server the same
// requests go to the user's shared worker instead, so a delegation's swarms run beside a window's on one model, and the
// swarms other clients run there on this workspace are listed too (mcpServedSwarms.ts); their approvals are left to
// the clients that show them.
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
import { ServedSwarms } from "./mcpServedSwarms";

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
  /** On the server: the swarms other clients started there, listed here too. */
  private readonly served: ServedSwarms | undefined;
  /** A launch and a catch-up never interleave: a catch-up must know every swarm launched here. */
  private turn: Promise<unknown> = Promise.resolve();

  /** `server`: the shared worker's peer (`mcp --server`); without it the worker's service runs in this process. */
  constructor(
    private readonly options: McpSwarmOptions,
    server?: RpcPeer,
  ) {
    if (server !== undefined) {
      this.host = server;
      this.served = new ServedSwarms(server, options.workspace, this.views);
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
    if (this.served?.hold(swarmId, events)) return;
    let view = this.views.get(swarmId) ?? emptySwarm(swarmId, Date.now());
    for (const e of events) {
      view = reduceSwarm(view, e);
      if (e.type === "approval-request" && !this.served?.adopted.has(swarmId)) {
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

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const next = this.turn.then(work, work);
    this.turn = next.catch(() => undefined);
    return next;
  }

  /** On the server: lists the swarms other clients run there on this workspace too. Never throws. */
  catchUp(): Promise<void> {
    const { served } = this;
    if (served === undefined) return Promise.resolve();
    return this.inTurn(() =>
      served.catchUp(
        (swarmId, events) => this.apply(swarmId, events),
        (why) => this.options.log(`the server's other swarms could not be listed: ${why}`),
      ),
    );
  }

  /** Left without an id, a tool means a swarm this client launched (another client's only when it launched none). */
  private choosable(swarmId: string | undefined): SwarmViewState[] {
    const all = this.swarms();
    const own = all.filter((s) => !this.served?.adopted.has(s.id));
    return swarmId === undefined && own.length > 0 ? own : all;
  }

  launch(input: LaunchToolInput): Promise<McpAnswer> {
    return this.inTurn(() => this.launchNow(input));
  }

  private async launchNow(input: LaunchToolInput): Promise<McpAnswer> {
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

  async status(input: StatusToolInput): Promise<McpAnswer> {
    await this.catchUp();
    const view = pickSwarm(this.choosable(input.swarmId), input.swarmId);
    return "error" in view ? { ok: false, text: view.error } : { ok: true, text: statusText(view) };
  }

  async findings(input: FindingsToolInput): Promise<McpAnswer> {
    await this.catchUp();
    const view = pickSwarm(this.choosable(input.swarmId), input.swarmId);
    if ("error" in view) return { ok: false, text: view.error };
    try {
      return { ok: true, text: findingsText(view, input) };
    } catch (err) {
      return { ok: false, text: (err as Error).message };
    }
  }

  async stop(input: StopToolInput): Promise<McpAnswer> {
    await this.catchUp();
    const view = pickSwarm(this.choosable(input.swarmId), input.swarmId);
    if ("error" in view) return { ok: false, text: view.error };
    if (!isRunning(view)) return { ok: false, text: `Swarm ${view.id} is not running (${view.status}).` };
    const { stopping } = await this.host.request(stopSwarmMethod, { swarmId: view.id });
    return stopping
      ? { ok: true, text: `Stopping swarm ${view.id}: its agents stop at their next step and the synthesist fans in.` }
      : { ok: false, text: `Swarm ${view.id} is no longer running.` };
  }

  /** The talk tools: each reaches the worker's own steering or trigger method for the swarm. */
  message(input: MessageToolInput): Promise<TalkAnswer> {
    return this.talk(messageSwarm, input);
  }

  addTask(input: AddTaskToolInput): Promise<TalkAnswer> {
    return this.talk(addTask, input);
  }

  answer(input: AnswerToolInput): Promise<TalkAnswer> {
    return this.talk(answerQuestion, input);
  }

  trigger(input: TriggerToolInput): Promise<TalkAnswer> {
    return this.talk(sendTrigger, input);
  }

  /** Catches up with the server's swarms, then sends `input` to the one it names (or the one to choose). */
  private async talk<I extends { swarmId?: string | undefined }>(
    send: (host: typeof this.host, swarm: ReturnType<typeof this.choosable>, input: I) => Promise<TalkAnswer>,
    input: I,
  ): Promise<TalkAnswer> {
    await this.catchUp();
    return send(this.host, this.choosable(input.swarmId), input);
  }

  dispose(): void {
    this.store.dispose();
  }
}
