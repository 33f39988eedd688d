// The person's levers on a running swarm, as commands: message the whole swarm or one agent, pause or resume an
// agent, add a task, answer an agent's question. The tree's context menus, the panel and the question
// notifications call them with a swarm (and agent or question) id; the text comes with the argument (the panel's
// box) or from an input box. Each says plainly when it cannot act, and returns what the worker answered.
import * as vscode from "vscode";
import type { z } from "zod";
import { toErrorData } from "../../core/rpc/rpcPeer";
import {
  addTaskMethod,
  answerQuestionMethod,
  answerTextSchema,
  pauseAgentMethod,
  taskTextSchema,
} from "../../protocol/steering";
import { messageSwarmMethod, messageTextSchema } from "../../protocol/swarmRpc";
import type { CommandHandler, HostCommand } from "../commandTable";
import type { HostLog } from "../hostLog";
import type { Receipts } from "../receipts";
import type { WorkerProcess } from "../workerProcess";
import { isRunning } from "./swarmStatus";
import type { SwarmStore } from "./swarmStore";

/** One text step (the launch's input, src/host/launch/launchInput.ts, fits: tests answer its box the same way). */
export interface TextInput {
  text(step: {
    title: string;
    prompt: string;
    placeholder?: string;
    validate?(value: string): { message: string; blocking: boolean } | undefined;
  }): Promise<string | undefined>;
}

export interface SteeringDeps {
  readonly worker: WorkerProcess;
  readonly store: SwarmStore;
  readonly log: HostLog;
  readonly input: TextInput;
  readonly receipts: Receipts;
}

type SteeringCommand = Extract<
  HostCommand,
  "messageSwarm" | "messageAgent" | "pauseAgent" | "resumeAgent" | "addTask" | "answerQuestion"
>;

/** What a command is called with: a tree node, or the panel's or a notification's own argument. */
interface SteerArgs {
  readonly swarmId?: string;
  readonly agentId?: string;
  readonly questionId?: string;
  readonly text?: string;
}

function steerArgs(arg: unknown): SteerArgs {
  if (typeof arg !== "object" || arg === null) return {};
  const record = arg as Record<string, unknown>;
  const pick = (key: keyof SteerArgs) => (typeof record[key] === "string" ? { [key]: record[key] } : {});
  return { ...pick("swarmId"), ...pick("agentId"), ...pick("questionId"), ...pick("text") };
}

function checkWith(schema: z.ZodType) {
  return (value: string) => {
    const parsed = schema.safeParse(value);
    return parsed.success ? undefined : { message: parsed.error.issues[0]!.message, blocking: true };
  };
}

export function steeringCommandHandlers(deps: SteeringDeps): Record<SteeringCommand, CommandHandler> {
  const { worker, store, log, receipts } = deps;
  /** The swarm named, else the running one; undefined (and said) when none runs. */
  const swarmOf = (args: SteerArgs): string | undefined => {
    const view = args.swarmId !== undefined ? store.swarm(args.swarmId) : store.swarms().find(isRunning);
    if (view !== undefined && isRunning(view)) return view.id;
    void vscode.window.showInformationMessage("Swarmboard: that swarm is not running, so there is nobody to steer.");
    return undefined;
  };
  /** Runs a request; a refusal is shown and logged, and the command resolves undefined. */
  const attempt = async <T>(what: string, request: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await request();
    } catch (error) {
      const message = toErrorData(error).message;
      log.warn(`${what} failed: ${message}`);
      void vscode.window.showErrorMessage(`Swarmboard: ${what} failed: ${message}`);
      return undefined;
    }
  };
  const textFor = (args: SteerArgs, title: string, prompt: string, schema: z.ZodType) =>
    args.text !== undefined
      ? Promise.resolve(args.text)
      : deps.input.text({ title, prompt, validate: checkWith(schema) });

  const message = async (args: SteerArgs, to: string) => {
    const swarmId = swarmOf(args);
    if (swarmId === undefined) return undefined;
    const who = to === "swarm" ? "every agent" : to;
    const text = await textFor(
      args,
      `Swarmboard: message ${who}`,
      to === "swarm"
        ? "Every agent reads it at its next step (a standing swarm's router decides who takes it)."
        : `${to} reads it when its current tool call returns.`,
      messageTextSchema,
    );
    if (text === undefined) return undefined;
    const sent = await attempt(`the message to ${who}`, () =>
      worker.request(messageSwarmMethod, { swarmId, to, text }),
    );
    if (sent) {
      log.info(`message ${sent.messageId} sent to ${to} in ${swarmId}${sent.asTrigger ? " as a trigger" : ""}`);
      receipts.say(messageReceipt(who, to, sent.asTrigger));
    }
    return sent;
  };
  const setPaused = async (args: SteerArgs, paused: boolean) => {
    const swarmId = swarmOf(args);
    if (swarmId === undefined || args.agentId === undefined) return undefined;
    const { agentId } = args;
    const done = await attempt(`${paused ? "pausing" : "resuming"} ${agentId}`, () =>
      worker.request(pauseAgentMethod, { swarmId, agentId, paused }),
    );
    if (done) {
      log.info(`${agentId} ${paused ? "paused" : "resumed"}${done.changed ? "" : " (it already was)"}`);
      const writing = store.swarm(swarmId)?.agents.find((a) => a.id === agentId)?.writing;
      receipts.say(pauseReceipt(agentId, paused, done.changed, writing?.tool));
    }
    return done;
  };
  return {
    messageSwarm: (arg?: unknown) => message(steerArgs(arg), "swarm"),
    messageAgent: (arg?: unknown) => {
      const args = steerArgs(arg);
      return args.agentId === undefined ? undefined : message(args, args.agentId);
    },
    pauseAgent: (arg?: unknown) => setPaused(steerArgs(arg), true),
    resumeAgent: (arg?: unknown) => setPaused(steerArgs(arg), false),
    addTask: async (arg?: unknown) => {
      const args = steerArgs(arg);
      const swarmId = swarmOf(args);
      if (swarmId === undefined) return undefined;
      const prompt = "It lands on the board as an open task; a free agent, or the next one to start, claims it.";
      const text = await textFor(args, "Swarmboard: add a task", prompt, taskTextSchema);
      if (text === undefined) return undefined;
      const added = await attempt("adding the task", () => worker.request(addTaskMethod, { swarmId, text }));
      if (added) {
        log.info(`task ${added.taskId} added to ${swarmId}`);
        receipts.say(`Swarmboard: task ${added.taskId} added; a free agent claims it`);
      }
      return added;
    },
    answerQuestion: async (arg?: unknown) => {
      const args = steerArgs(arg);
      const swarmId = swarmOf(args);
      if (swarmId === undefined) return undefined;
      const open = store.swarm(swarmId)?.questions ?? [];
      const question = open.find((q) => q.questionId === args.questionId) ?? (args.questionId ? undefined : open[0]);
      if (question === undefined) {
        void vscode.window.showInformationMessage(
          "Swarmboard: that question is no longer open (answered or timed out).",
        );
        return undefined;
      }
      const title = `Swarmboard: ${question.agentId} asks (${question.questionId})`;
      const text = await textFor(args, title, question.question, answerTextSchema);
      if (text === undefined) return undefined;
      const { questionId } = question;
      const answered = await attempt(`the answer to ${question.agentId}`, () =>
        worker.request(answerQuestionMethod, { swarmId, questionId, text }),
      );
      if (answered && !answered.known)
        void vscode.window.showWarningMessage(
          `Swarmboard: ${question.agentId} had stopped waiting (no answer in time, or it stopped); it went on without your answer.`,
        );
      if (answered) log.info(`answer to ${questionId} of ${question.agentId}: ${answered.known ? "sent" : "too late"}`);
      return answered;
    },
  };
}

function messageReceipt(who: string, to: string, asTrigger: boolean | undefined): string {
  if (asTrigger) return "Swarmboard: sent to the router; it decides who takes it";
  return to === "swarm"
    ? "Swarmboard: sent to every agent; each reads it at its next step"
    : `Swarmboard: sent to ${who}; read when its current call returns`;
}

/**
 * A pause takes effect between steps: the receipt says so, since the lane keeps moving until then; mid-call (a long
 * call can take minutes) it names the call it waits for.
 */
export function pauseReceipt(agentId: string, paused: boolean, changed: boolean, writingTool?: string): string {
  if (!changed) return `Swarmboard: ${agentId} was already ${paused ? "paused" : "running"}`;
  if (!paused) return `Swarmboard: ${agentId} resumed`;
  return writingTool !== undefined
    ? `Swarmboard: ${agentId} pauses after the ${writingTool} call it is writing`
    : `Swarmboard: ${agentId} pauses after its current step`;
}
