// The talk tools as VS Code language model tools (swarmboard_message_swarm, _add_task, _answer_question,
// _send_trigger): the schemas of src/protocol/talkTools.ts, parsed here (a bad input is an error naming the
// field), each answered by the worker's own steering or trigger method through SwarmDelegation.
import * as vscode from "vscode";
import type { z } from "zod";
import { describeInputProblems } from "../../protocol/delegationTools";
import { talkToolLmName, talkTools, type TalkToolName } from "../../protocol/talkTools";
import type { DelegationAnswer, SwarmDelegation } from "./swarmDelegation";

function parseInput<S extends z.ZodType>(name: string, schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success)
    throw new Error(`${name}: the input is not valid (${describeInputProblems(parsed.error)}). Fix it and call again.`);
  return parsed.data;
}

function register<N extends TalkToolName>(
  name: N,
  invocation: (input: z.infer<(typeof talkTools)[N]["input"]>) => string,
  call: (input: z.infer<(typeof talkTools)[N]["input"]>) => Promise<DelegationAnswer>,
): vscode.Disposable {
  const lmName = talkToolLmName(name);
  const input = (raw: unknown) =>
    parseInput(lmName, talkTools[name].input, raw) as z.infer<(typeof talkTools)[N]["input"]>;
  return vscode.lm.registerTool<unknown>(lmName, {
    prepareInvocation: (options) => ({ invocationMessage: invocation(input(options.input)) }),
    invoke: async (options) => {
      const result = await call(input(options.input));
      // A refusal is text the agent reads (what happened, what to do), not an exception that ends its turn.
      return new vscode.LanguageModelToolResult([
        new vscode.LanguageModelTextPart(result.ok ? result.text : `${lmName} failed: ${result.text}`),
      ]);
    },
  });
}

export function registerTalkLanguageModelTools(delegation: SwarmDelegation): vscode.Disposable[] {
  return [
    register(
      "message_swarm",
      (i) => `Messaging ${i.to && i.to !== "swarm" ? i.to : "every agent"} of the Swarmboard swarm`,
      (i) => delegation.message(i),
    ),
    register(
      "add_task",
      () => "Adding a task to the Swarmboard swarm",
      (i) => delegation.addTask(i),
    ),
    register(
      "answer_question",
      (i) => `Answering ${i.questionId}`,
      (i) => delegation.answer(i),
    ),
    register(
      "send_trigger",
      () => "Sending a trigger to the standing Swarmboard swarm",
      (i) => delegation.trigger(i),
    ),
  ];
}
