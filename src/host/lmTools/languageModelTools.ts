// Swarmboard's language model tools (package.json `languageModelTools`): Copilot agent mode and any other
// agent in VS Code can launch a local swarm, follow it, read its findings and stop it, and talk to it
// (talkLanguageModelTools.ts). Each input is parsed by its zod schema (src/protocol/delegationTools.ts); a bad
// one is a tool error that says what to fix.
import * as vscode from "vscode";
import type { z } from "zod";
import {
  delegationTools,
  describeInputProblems,
  type DelegationToolName,
  type LaunchToolInput,
} from "../../protocol/delegationTools";
import type { DelegationAnswer, SwarmDelegation } from "./swarmDelegation";
import { registerTalkLanguageModelTools } from "./talkLanguageModelTools";

function parseInput<S extends z.ZodType>(name: DelegationToolName, schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success)
    throw new Error(`${name}: the input is not valid (${describeInputProblems(parsed.error)}). Fix it and call again.`);
  return parsed.data;
}

function answer(name: DelegationToolName, result: DelegationAnswer): vscode.LanguageModelToolResult {
  // A refusal is text the agent reads (what happened, what to do), not an exception that ends its turn.
  return new vscode.LanguageModelToolResult([
    new vscode.LanguageModelTextPart(result.ok ? result.text : `${name} failed: ${result.text}`),
  ]);
}

function launchConfirmation(input: LaunchToolInput, recipe: string): vscode.PreparedToolInvocation {
  const message = new vscode.MarkdownString();
  message.appendText(`Start a local swarm of ${input.agents ?? "the recipe's"} agents (recipe ${recipe}) for:\n\n`);
  message.appendText(input.goal);
  message.appendText(
    "\n\nThe agents work on their own branches of this repository (your checkout is not touched) and run commands under swarmboard.commandPolicy.",
  );
  return {
    invocationMessage: `Launching a Swarmboard swarm (${recipe})`,
    confirmationMessages: { title: "Launch a Swarmboard swarm?", message },
  };
}

export function registerLanguageModelTools(delegation: SwarmDelegation): vscode.Disposable[] {
  const tools = delegationTools;
  return [
    vscode.lm.registerTool<unknown>("swarmboard_launch", {
      prepareInvocation: (options) => {
        const input = parseInput("swarmboard_launch", tools.swarmboard_launch.input, options.input);
        return launchConfirmation(input, input.recipe ?? delegation.currentRecipe());
      },
      invoke: async (options) =>
        answer(
          "swarmboard_launch",
          await delegation.launch(parseInput("swarmboard_launch", tools.swarmboard_launch.input, options.input)),
        ),
    }),
    vscode.lm.registerTool<unknown>("swarmboard_status", {
      invoke: (options) =>
        answer(
          "swarmboard_status",
          delegation.status(parseInput("swarmboard_status", tools.swarmboard_status.input, options.input)),
        ),
    }),
    vscode.lm.registerTool<unknown>("swarmboard_findings", {
      invoke: (options) =>
        answer(
          "swarmboard_findings",
          delegation.findings(parseInput("swarmboard_findings", tools.swarmboard_findings.input, options.input)),
        ),
    }),
    vscode.lm.registerTool<unknown>("swarmboard_stop", {
      prepareInvocation: (options) => {
        const input = parseInput("swarmboard_stop", tools.swarmboard_stop.input, options.input);
        return { invocationMessage: `Stopping Swarmboard swarm ${input.swarmId ?? "(the running one)"}` };
      },
      invoke: async (options) =>
        answer(
          "swarmboard_stop",
          await delegation.stop(parseInput("swarmboard_stop", tools.swarmboard_stop.input, options.input)),
        ),
    }),
    ...registerTalkLanguageModelTools(delegation),
  ];
}
