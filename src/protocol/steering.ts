// A person steering a running swarm, besides messages (swarmRpc.ts): pause or resume one agent, add a task to
// the board, answer an agent's `ask_user` question. The worker serves these methods; the host (tree, panel,
// notifications) and the CLI (stdin lines) call them. The question and its end travel as swarm events.
import { z } from "zod";
import { defineMethod } from "./envelope";

/** The default wait for an answer to `ask_user` (the `swarmboard.askUserTimeoutSeconds` setting). */
export const defaultAskUserTimeoutSeconds = 300;
/** The longest wait a setting or flag may ask for (a day): past it a swarm's wall clock ends first anyway. */
export const maxAskUserTimeoutSeconds = 86_400;

/**
 * Seconds an agent's `ask_user` question waits for an answer; 0 means nobody will answer (the agent is told so at
 * once and goes on).
 */
export const askUserTimeoutSchema = z
  .number()
  .int("expected a whole number of seconds")
  .min(0, "expected 0 (nobody answers) or more seconds")
  .max(maxAskUserTimeoutSeconds, `expected at most ${maxAskUserTimeoutSeconds} seconds (a day)`);

/** Pauses (paused true) or resumes one agent. A paused agent takes no decode step; it keeps its cells, claims and worktree. */
export const pauseAgentMethod = defineMethod(
  "swarm/pauseAgent",
  z.object({ swarmId: z.string(), agentId: z.string().min(1), paused: z.boolean() }),
  /** `changed` false: it was already in that state. */
  z.object({ agentId: z.string(), paused: z.boolean(), changed: z.boolean() }),
);

export const maxTaskChars = 2_000;

export const taskTextSchema = z
  .string()
  .trim()
  .min(1, "expected a task")
  .max(maxTaskChars, `a task is at most ${maxTaskChars.toLocaleString("en-US")} characters`);

/** A task added by the person: it lands on the board as an open task that an agent can claim by its id. */
export const addTaskMethod = defineMethod(
  "swarm/addTask",
  z.object({ swarmId: z.string(), text: taskTextSchema }),
  z.object({ taskId: z.string() }),
);

export const maxAnswerChars = 8_000;

export const answerTextSchema = z
  .string()
  .trim()
  .min(1, "expected an answer")
  .max(maxAnswerChars, `an answer is at most ${maxAnswerChars.toLocaleString("en-US")} characters`);

/** The person's answer to an agent's `ask_user` question; `known` false when it had already ended. */
export const answerQuestionMethod = defineMethod(
  "swarm/answerQuestion",
  z.object({ swarmId: z.string(), questionId: z.string().min(1), text: answerTextSchema }),
  z.object({ known: z.boolean() }),
);

/** The arguments of the `ask_user` tool. */
export const askUserArgs = z.object({
  question: z
    .string()
    .trim()
    .min(1)
    .max(2_000)
    .describe("one clear question for the person; say what you will do if nobody answers"),
});

/** How a question ended: the person's answer, no answer in time, or the agent or swarm stopped first. */
export const questionOutcomeSchema = z.enum(["answered", "timed-out", "withdrawn"]);
export type QuestionOutcome = z.infer<typeof questionOutcomeSchema>;

/** What is left of a question's wait, in words: minutes and seconds, then that the agent decides alone. */
export function questionWaitText(leftMs: number): string {
  if (leftMs <= 0) return "No answer in time: it decides alone.";
  const seconds = Math.ceil(leftMs / 1000);
  const clock = seconds >= 60 ? `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}` : `${seconds} s`;
  return `No answer within ${clock}: it decides alone.`;
}
