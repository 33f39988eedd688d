// The @swarmboard chat participant: `@swarmboard <goal>` launches a swarm through the palette's own launch
// path (SwarmDelegation -> launchSwarm) with the current recipe and model, or a built-in recipe by slash
// command, and streams its progress. A follow-up while a swarm runs steers it through the worker's own steering
// (src/core/chatFollowUp.ts reads it): stop the swarm or one agent, tell the swarm or an agent something, add a
// task, answer an agent's question; the reply says what the worker did. Other words are not sent anywhere.
import * as vscode from "vscode";
import { isRunning, pickSwarm } from "../../core/delegationText";
import type { HostLog } from "../hostLog";
import type { SwarmStore } from "../swarm/swarmStore";
import type { SwarmDelegation } from "../lmTools/swarmDelegation";
import { streamSwarm } from "./chatProgress";
import { goalFromRequest } from "./chatGoal";
import { parseFollowUp } from "../../core/chatFollowUp";

export const participantId = "swarmboard.swarm";

/** Slash commands for the built-in recipes (package.json `chatParticipants[].commands` lists them). */
export const recipeCommands: Readonly<Record<string, string>> = {
  organization: "organization",
  research: "research",
  "fix-tests": "fix-failing-tests",
  todo: "todo-sweep",
};

interface ParticipantDeps {
  readonly delegation: SwarmDelegation;
  readonly store: SwarmStore;
  readonly log: HostLog;
}

const followUpHelp =
  "Follow-ups while it runs: `stop`, `stop agent-2`, `tell agent-2 <message>`, `tell the swarm <message>`, " +
  "`add task <task>`, `answer question-3 <answer>`, or `/status`.";

async function steer(
  deps: ParticipantDeps,
  swarmId: string,
  prompt: string,
  stream: vscode.ChatResponseStream,
): Promise<void> {
  const followUp = parseFollowUp(prompt);
  switch (followUp.kind) {
    case "stop-agent": {
      const { agentId } = followUp;
      const stopping = await vscode.commands.executeCommand<boolean>("swarmboard.stopAgent", { swarmId, agentId });
      stream.markdown(stopping ? `Stopping **${agentId}** of swarm \`${swarmId}\`.` : `${agentId} is not running.`);
      return;
    }
    case "stop":
      stream.markdown((await deps.delegation.stop({ swarmId })).text);
      return;
    case "tell":
      stream.markdown((await deps.delegation.message({ swarmId, to: followUp.to, text: followUp.text })).text);
      return;
    case "add-task":
      stream.markdown((await deps.delegation.addTask({ swarmId, text: followUp.text })).text);
      return;
    case "answer": {
      const { questionId, text } = followUp;
      stream.markdown((await deps.delegation.answer({ swarmId, questionId, text })).text);
      return;
    }
    case "unknown":
      stream.markdown(`Swarm \`${swarmId}\` is running; that follow-up was not sent to it. ${followUpHelp}`);
  }
}

function handler(deps: ParticipantDeps): vscode.ChatRequestHandler {
  return async (request, _context, stream, token) => {
    deps.log.info(
      `chat: @swarmboard${request.command ? ` /${request.command}` : ""} (${request.prompt.length} characters)`,
    );
    const current = pickSwarm(deps.store.swarms(), undefined);
    const running = "error" in current || !isRunning(current) ? undefined : current;
    if (request.command === "status") {
      stream.markdown(deps.delegation.status({}).text.replace(/^/, "```text\n") + "\n```");
      return {};
    }
    if (request.command === "stop") {
      stream.markdown(running ? (await deps.delegation.stop({ swarmId: running.id })).text : "No swarm is running.");
      return {};
    }
    const recipe = request.command ? recipeCommands[request.command] : undefined;
    if (running && recipe === undefined) {
      await steer(deps, running.id, request.prompt.trim(), stream);
      return { metadata: { swarmId: running.id } };
    }
    const goal = await goalFromRequest(request);
    if (goal === "") {
      stream.markdown("Tell me what the swarm should do: `@swarmboard <goal>` (or `/research <question>`).");
      return {};
    }
    stream.progress("Launching the swarm (the model loads once for all agents)…");
    const launched = await deps.delegation.launch({ goal, ...(recipe ? { recipe } : {}) });
    if (!launched.ok || launched.swarmId === undefined) {
      stream.markdown(launched.text);
      return { errorDetails: { message: launched.text } };
    }
    stream.markdown(`Launched swarm \`${launched.swarmId}\` (${recipe ?? deps.delegation.currentRecipe()}).\n\n`);
    await streamSwarm(deps.store, launched.swarmId, stream, token);
    return { metadata: { swarmId: launched.swarmId } };
  };
}

export function registerChatParticipant(deps: ParticipantDeps): vscode.ChatParticipant {
  const participant = vscode.chat.createChatParticipant(participantId, handler(deps));
  participant.iconPath = new vscode.ThemeIcon("organization");
  participant.followupProvider = {
    provideFollowups: (result) =>
      typeof result.metadata?.swarmId === "string"
        ? [
            { prompt: "stop", label: "Stop the swarm" },
            { prompt: "", command: "status", label: "Status" },
          ]
        : [],
  };
  return participant;
}
