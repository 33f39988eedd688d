// `ask_user`: an agent asks the person one question and waits for the answer, at most the swarm's timeout
// (swarmboard.askUserTimeoutSeconds, --ask-user-timeout); no answer in time is a normal result that says so, and
// the agent goes on with its best judgement. The question shows in VS Code as a notification and in the panel,
// and in the CLI as a line answered with `@answer <id> text` (src/worker/agent/swarmQuestions.ts holds the wait).
import { askUserArgs } from "../../../protocol/steering";
import type { AskUserOutcome } from "./toolContext";
import { defineTool, type CatalogTool } from "./toolDefinition";

/** What ask_user needs: a way to reach the person, absent where the swarm has none. */
export interface AskUserToolContext {
  readonly askUser?: (question: string) => Promise<AskUserOutcome>;
}

export const askUserTool: CatalogTool<AskUserToolContext> = defineTool({
  name: "ask_user",
  kind: "control",
  description:
    "Ask the person watching the swarm one question when you cannot decide from the code, the board or the goal " +
    "(intent, a trade-off, an unclear requirement). You wait for the answer, at most a few minutes; without one, " +
    "go on with your best judgement. Do not ask what you can find out yourself.",
  args: askUserArgs,
  run: (ctx: AskUserToolContext, { question }) => {
    if (ctx.askUser === undefined) throw new Error("nobody can be asked in this swarm: decide yourself.");
    return ctx.askUser(question);
  },
  meaning: (outcome) =>
    outcome.answered
      ? {
          summary: `the person answered ${outcome.questionId}: ${outcome.answer}`,
          reply: { from: "user", answer: outcome.answer },
        }
      : { summary: `no answer to ${outcome.questionId}: ${outcome.note}`, reply: { answer: null, note: outcome.note } },
});
