// Another agent talking to a running swarm (the MCP tools, the language model tools, the chat participant): each
// call goes to the worker's own steering or trigger method, and what the worker did (or why it refused) comes back
// as text the caller reads. No I/O of its own: the worker's `request` is handed in.
import type { z } from "zod";
import type { MethodSpec } from "../protocol/envelope";
import { addTaskMethod, answerQuestionMethod } from "../protocol/steering";
import { messageSwarmMethod } from "../protocol/swarmRpc";
import type { AddTaskToolInput, AnswerToolInput, MessageToolInput, TriggerToolInput } from "../protocol/talkTools";
import { swarmTriggerMethod } from "../protocol/triggers";
import { isRunning, pickSwarm } from "./delegationText";
import { toErrorData } from "./rpc/rpcPeer";
import type { SwarmViewState } from "./swarmView";

/** The worker, as far as talking to it goes (an RpcPeer, the host's WorkerProcess). */
export interface TalkWorker {
  request<P extends z.ZodType, R extends z.ZodType>(spec: MethodSpec<P, R>, params: z.input<P>): Promise<z.output<R>>;
}

/** What a talk call did: text for the caller, and the swarm it concerned when there is one. */
export interface TalkAnswer {
  readonly ok: boolean;
  readonly text: string;
  readonly swarmId?: string;
}

/** The running swarm a call talks to, or why there is none. */
function runningSwarm(swarms: readonly SwarmViewState[], swarmId: string | undefined): SwarmViewState | TalkAnswer {
  const view = pickSwarm(swarms, swarmId);
  if ("error" in view) return { ok: false, text: view.error };
  if (!isRunning(view))
    return { ok: false, swarmId: view.id, text: `Swarm ${view.id} is not running (${view.status}).` };
  return view;
}

/** Runs one worker call on the running swarm; a refusal is an answer naming the worker's reason, not a throw. */
async function talk<T>(
  swarms: readonly SwarmViewState[],
  swarmId: string | undefined,
  call: (view: SwarmViewState) => Promise<T>,
  said: (result: T, view: SwarmViewState) => TalkAnswer,
): Promise<TalkAnswer> {
  const view = runningSwarm(swarms, swarmId);
  if ("ok" in view) return view;
  try {
    return said(await call(view), view);
  } catch (err) {
    const { code, message } = toErrorData(err);
    return { ok: false, swarmId: view.id, text: `Refused (${code}): ${message}` };
  }
}

export function messageSwarm(
  worker: TalkWorker,
  swarms: readonly SwarmViewState[],
  input: MessageToolInput,
): Promise<TalkAnswer> {
  const to = input.to ?? "swarm";
  return talk(
    swarms,
    input.swarmId,
    (view) => worker.request(messageSwarmMethod, { swarmId: view.id, to, text: input.text }),
    (sent, view) => ({
      ok: true,
      swarmId: view.id,
      text: sent.asTrigger
        ? `Message ${sent.messageId} taken by standing swarm ${view.id} as a trigger: its router decides who takes it.`
        : `Message ${sent.messageId} sent to ${to === "swarm" ? "every agent" : to} of swarm ${view.id}: read when the current tool call returns.`,
    }),
  );
}

export function addTask(
  worker: TalkWorker,
  swarms: readonly SwarmViewState[],
  input: AddTaskToolInput,
): Promise<TalkAnswer> {
  return talk(
    swarms,
    input.swarmId,
    (view) => worker.request(addTaskMethod, { swarmId: view.id, text: input.text }),
    (added, view) => ({
      ok: true,
      swarmId: view.id,
      text: `Task ${added.taskId} added to swarm ${view.id}'s board: a free agent claims it by its id.`,
    }),
  );
}

export function answerQuestion(
  worker: TalkWorker,
  swarms: readonly SwarmViewState[],
  input: AnswerToolInput,
): Promise<TalkAnswer> {
  return talk(
    swarms,
    input.swarmId,
    (view) =>
      worker.request(answerQuestionMethod, { swarmId: view.id, questionId: input.questionId, text: input.text }),
    ({ known }, view) => {
      const asker = view.questions.find((q) => q.questionId === input.questionId)?.agentId ?? "the agent";
      return known
        ? {
            ok: true,
            swarmId: view.id,
            text: `Answered ${input.questionId}: ${asker} reads it as its ask_user result.`,
          }
        : {
            ok: false,
            swarmId: view.id,
            text: `${input.questionId} is not an open question of swarm ${view.id} (answered, timed out, or never asked).`,
          };
    },
  );
}

export function sendTrigger(
  worker: TalkWorker,
  swarms: readonly SwarmViewState[],
  input: TriggerToolInput,
): Promise<TalkAnswer> {
  const { swarmId, source, ...rest } = input;
  return talk(
    swarms,
    swarmId,
    (view) =>
      worker.request(swarmTriggerMethod, { swarmId: view.id, trigger: { source: source ?? "message", ...rest } }),
    (taken, view) => ({
      ok: true,
      swarmId: view.id,
      text: `Trigger ${taken.triggerId} taken by standing swarm ${view.id}${taken.duplicate ? " (seen before: nothing new happened)" : ""}: ${routeText(taken.route)}.`,
    }),
  );
}

function routeText(route: z.infer<typeof swarmTriggerMethod.result>["route"]): string {
  switch (route.route) {
    case "dropped":
      return `dropped by rule ${route.rule} (${route.reason})`;
    case "direct":
      return `sent to ${route.agentId}, which owns its thread`;
    case "parked":
      return `parked until its thread ${route.thread} has an owner`;
    case "router":
      return "the router decides who takes it";
  }
}
