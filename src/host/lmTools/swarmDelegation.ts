// The one service behind every way another agent reaches Swarmboard inside VS Code: the language model tools
// and the @swarmboard chat participant. Launching goes through launchSwarm, the palette command's own path;
// status and findings are projections of the store's SwarmViewState (src/core/delegationText.ts).
import { toErrorData } from "../../core/rpc/rpcPeer";
import { findingsText, isRunning, pickSwarm, statusText } from "../../core/delegationText";
import { addTask, answerQuestion, messageSwarm, sendTrigger } from "../../core/swarmTalk";
import type {
  FindingsToolInput,
  LaunchToolInput,
  StatusToolInput,
  StopToolInput,
} from "../../protocol/delegationTools";
import { stopSwarmMethod } from "../../protocol/swarmRpc";
import type { AddTaskToolInput, AnswerToolInput, MessageToolInput, TriggerToolInput } from "../../protocol/talkTools";
import type { LaunchArgs } from "../launch/launchArgs";
import { launchSwarm, type LaunchDeps } from "../launch/launchSwarm";

/** A tool's answer: text for the calling agent, and the swarm it concerned when there is one. */
export interface DelegationAnswer {
  readonly ok: boolean;
  readonly text: string;
  readonly swarmId?: string;
}

/**
 * Launch arguments the tools cannot express and only tests set (a turn script, a model, threads): the
 * launch itself still goes through launchSwarm unchanged.
 */
export type LaunchOverrides = Partial<Omit<LaunchArgs, "goal" | "recipe">>;

export const defaultRecipe = "organization";

export class SwarmDelegation {
  /** Set only by the in-host tests (ExtensionMode.Test). */
  testOverrides: LaunchOverrides = {};

  constructor(private readonly deps: LaunchDeps) {}

  /** The recipe a launch without one uses: the current swarm's, else the default. */
  currentRecipe(): string {
    return this.deps.store.current()?.recipe || defaultRecipe;
  }

  async launch(input: LaunchToolInput): Promise<DelegationAnswer> {
    const recipe = input.recipe ?? this.currentRecipe();
    const result = await launchSwarm(this.deps, {
      ...this.testOverrides,
      goal: input.goal,
      recipe,
      ...(input.agents ? { agents: input.agents } : {}),
    });
    if (result.outcome !== "launched") return { ok: false, text: `Swarmboard did not launch: ${result.reason}` };
    return {
      ok: true,
      swarmId: result.swarmId,
      text: [
        `Launched swarm ${result.swarmId} (recipe ${recipe}, ${input.agents ?? "the recipe's"} agents) on the open repository.`,
        `Goal: ${input.goal}`,
        `It runs in the background: call swarmboard_status with swarmId "${result.swarmId}" to follow it and swarmboard_findings to read what it finds.`,
      ].join("\n"),
    };
  }

  status(input: StatusToolInput): DelegationAnswer {
    const view = pickSwarm(this.deps.store.swarms(), input.swarmId);
    if ("error" in view) return { ok: false, text: view.error };
    return { ok: true, swarmId: view.id, text: statusText(view, view.interrupted) };
  }

  findings(input: FindingsToolInput): DelegationAnswer {
    const view = pickSwarm(this.deps.store.swarms(), input.swarmId);
    if ("error" in view) return { ok: false, text: view.error };
    try {
      return { ok: true, swarmId: view.id, text: findingsText(view, input) };
    } catch (err) {
      return { ok: false, text: (err as Error).message };
    }
  }

  async stop(input: StopToolInput): Promise<DelegationAnswer> {
    const view = pickSwarm(this.deps.store.swarms(), input.swarmId);
    if ("error" in view) return { ok: false, text: view.error };
    if (!isRunning(view))
      return { ok: false, swarmId: view.id, text: `Swarm ${view.id} is not running (${view.status}).` };
    try {
      const { stopping } = await this.deps.worker.request(stopSwarmMethod, { swarmId: view.id });
      this.deps.log.info(`stop swarm ${view.id} (delegated): ${stopping ? "stopping" : "not running in the worker"}`);
      return stopping
        ? {
            ok: true,
            swarmId: view.id,
            text: `Stopping swarm ${view.id}: its agents stop at their next step and the synthesist fans in. Call swarmboard_status to see it end.`,
          }
        : { ok: false, swarmId: view.id, text: `Swarm ${view.id} is no longer running in the worker.` };
    } catch (err) {
      return { ok: false, swarmId: view.id, text: `Could not stop ${view.id}: ${toErrorData(err).message}` };
    }
  }

  /** Talking to a running swarm: each reaches the worker's own steering or trigger method (src/core/swarmTalk.ts). */
  message(input: MessageToolInput): Promise<DelegationAnswer> {
    return this.logged("message", messageSwarm(this.deps.worker, this.deps.store.swarms(), input));
  }

  addTask(input: AddTaskToolInput): Promise<DelegationAnswer> {
    return this.logged("add task", addTask(this.deps.worker, this.deps.store.swarms(), input));
  }

  answer(input: AnswerToolInput): Promise<DelegationAnswer> {
    return this.logged("answer", answerQuestion(this.deps.worker, this.deps.store.swarms(), input));
  }

  trigger(input: TriggerToolInput): Promise<DelegationAnswer> {
    return this.logged("trigger", sendTrigger(this.deps.worker, this.deps.store.swarms(), input));
  }

  private async logged(what: string, answer: Promise<DelegationAnswer>): Promise<DelegationAnswer> {
    const done = await answer;
    this.deps.log.info(`${what} (delegated): ${done.text}`);
    return done;
  }
}
