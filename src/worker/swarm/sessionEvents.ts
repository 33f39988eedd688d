// The session's events as they leave it: each draft stamped with the swarm's id and the time, after the schedule
// has seen it (a standing swarm's worker owns its thread once it joined); and the swarm-started event, built
// from the set-up swarm.
import { listRules } from "../../core/agentRules";
import type { SwarmEvent } from "../../protocol/swarmEvents";
import type { AgentEventDraft } from "../agent/agentEventDraft";
import type { SwarmRun } from "./swarmRun";

/** What `emit` takes: an event without its swarm id and time. */
export type SessionEvent = AgentEventDraft;

export function stampEvents(
  swarmId: string,
  emitEvent: (event: SwarmEvent) => void,
  observe: (draft: SessionEvent) => void,
): (draft: SessionEvent) => void {
  return (draft) => {
    observe(draft);
    emitEvent({ ...draft, swarmId, time: Date.now() } as SwarmEvent);
  };
}

/**
 * The start of a set-up swarm, as the views show it: goal, recipe, mode, model, branch, trunk, rules, disk, how
 * merges are verified and how agent commands run (`commands`: workspace/bubblewrap.ts commandsLine).
 */
export function swarmStartedEvent(run: SwarmRun, commands: string): SessionEvent {
  const { options, context, repo, model } = run;
  return {
    type: "swarm-started",
    goal: options.goal,
    recipe: options.recipe.name,
    mode: context.mode,
    model: model.facts,
    integrationBranch: repo.integrationBranch,
    trunkTokens: context.trunkTokens.length,
    ...(run.trunkReuse ? { trunkReusedTokens: run.trunkReuse.reusedTokens } : {}),
    rules: listRules(run.rules),
    disk: run.disk,
    verification: verificationText(options.recipe),
    commands,
  };
}

/** Which command verifies merges, for the start line (the launch detected it when the recipe named none). */
function verificationText(recipe: SwarmRun["options"]["recipe"]): string {
  if (recipe.testCommand === undefined)
    return recipe.verify === "off" ? 'merges unverified (verify: "off")' : "merges unverified: no test command found";
  return recipe.verify === "off"
    ? `merges verified with "${recipe.testCommand}"; published unverified when the tests cannot run (verify: "off")`
    : `merges verified with "${recipe.testCommand}"; refused when the tests cannot run`;
}
