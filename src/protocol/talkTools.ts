// The tools through which another agent talks to a running swarm: a message (to every agent or one), a task for
// the board, the answer to an agent's ask_user question, a trigger for a standing swarm. One schema each, shared
// by the MCP server (src/cli/mcpServer.ts) and the VS Code language model tools (src/host/lmTools); each reaches
// the worker's own steering methods (src/protocol/steering.ts, swarmRpc.ts, triggers.ts) through src/core/swarmTalk.ts.
import { z } from "zod";
import { swarmIdField } from "./delegationTools";
import { answerTextSchema, taskTextSchema } from "./steering";
import { messageTextSchema } from "./swarmRpc";
import { triggerInputSchema, triggerSourceSchema } from "./triggers";

export const messageToolInput = z
  .object({
    swarmId: swarmIdField,
    to: z
      .string()
      .trim()
      .min(1)
      .optional()
      .describe(
        'An agent\'s id (agent-2), or "swarm" for every agent (default). A standing swarm\'s router takes a message to "swarm" as a trigger.',
      ),
    text: messageTextSchema.describe("The message; the agent reads it when its current tool call returns."),
  })
  .strict();
export type MessageToolInput = z.infer<typeof messageToolInput>;

export const addTaskToolInput = z
  .object({
    swarmId: swarmIdField,
    text: taskTextSchema.describe("The task: what to do and how to know it is done. A free agent claims it by its id."),
  })
  .strict();
export type AddTaskToolInput = z.infer<typeof addTaskToolInput>;

export const answerToolInput = z
  .object({
    swarmId: swarmIdField,
    questionId: z
      .string()
      .trim()
      .min(1)
      .describe("The question's id (question-3), as swarmboard_status lists the open questions."),
    text: answerTextSchema.describe("The answer the agent reads as its ask_user call's result."),
  })
  .strict();
export type AnswerToolInput = z.infer<typeof answerToolInput>;

export const triggerToolInput = z
  .object({
    swarmId: swarmIdField,
    source: triggerSourceSchema
      .optional()
      .describe("What kind of event: message (default), diagnostic, test-failure, todo-commit, user-commit."),
    id: triggerInputSchema.shape.id.describe("A stable id: a trigger with an id seen before is not taken twice."),
    text: triggerInputSchema.shape.text.describe("What happened, in words (the error, the failing assertion)."),
    path: triggerInputSchema.shape.path.describe("The file it concerns, relative to the repository."),
    line: triggerInputSchema.shape.line.describe("The line in that file."),
    test: triggerInputSchema.shape.test.describe("The failing test's name (test-failure)."),
    severity: triggerInputSchema.shape.severity.describe("error (default), warning or info."),
  })
  .strict();
export type TriggerToolInput = z.infer<typeof triggerToolInput>;

export const talkTools = {
  message_swarm: {
    input: messageToolInput,
    description:
      "Send a message to a running Swarmboard swarm: to every agent, or to one agent by id. Returns the message id; the board shows when it was delivered.",
  },
  add_task: {
    input: addTaskToolInput,
    description:
      "Add a task to a running Swarmboard swarm's board: it lands as an open task (its id is returned) that a free agent claims.",
  },
  answer_question: {
    input: answerToolInput,
    description:
      "Answer an agent's ask_user question in a running Swarmboard swarm (swarmboard_status lists the open ones with their ids).",
  },
  send_trigger: {
    input: triggerToolInput,
    description:
      "Hand a trigger (an error, a failing test, a message) to a standing Swarmboard swarm (recipe watch): rules drop noise, follow-ups reach their owner, new work goes to its router. Refused for a swarm that is not standing.",
  },
} as const;
export type TalkToolName = keyof typeof talkTools;

/** A talk tool's name among VS Code's language model tools, where every extension's tools share one namespace. */
export function talkToolLmName(name: TalkToolName): `swarmboard_${TalkToolName}` {
  return `swarmboard_${name}`;
}
