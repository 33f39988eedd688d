// A standing swarm's trigger queue in the Swarms tree: one "Triggers" node under the swarm saying where its
// triggers stand (arrived, waiting for the router, held, routed, dropped), and under it the newest triggers, each
// with its state and what happened to it (the rule that dropped it, the agent that owns it).
import { triggerQueueLine, type TriggerItem } from "../../core/triggerView";
import type { SwarmViewState } from "../../core/swarmView";
import type { SwarmsNode } from "./swarmsNodes";

export type TriggerNodeKind = "triggers" | "trigger";

/** The tree lists this many of the newest triggers (the panel lists more). */
const triggersListed = 30;

const stateIcons: Record<TriggerItem["state"], string> = {
  waiting: "watch",
  held: "debug-pause",
  routed: "arrow-right",
  dropped: "circle-slash",
  replied: "comment",
};

/** The swarm's "Triggers" node; undefined for a swarm that takes no triggers. */
export function triggerQueueNode(view: SwarmViewState): SwarmsNode | undefined {
  if (view.triggers === undefined) return undefined;
  const recent = view.triggers.recent;
  return {
    id: `triggers:${view.id}`,
    kind: "triggers",
    label: "Triggers",
    description: recent.length === 0 ? "none yet" : triggerQueueLine(recent),
    tooltip:
      "What the swarm was handed (the editor's errors, failing tests on save, commits, messages) and where each went.",
    icon: "inbox",
    swarmId: view.id,
    collapsible: recent.length > 0,
  };
}

/** The newest triggers, newest first. */
export function triggerNodes(view: SwarmViewState): SwarmsNode[] {
  const recent = view.triggers?.recent ?? [];
  return recent
    .slice(-triggersListed)
    .reverse()
    .map((t) => ({
      id: `trigger:${view.id}:${t.id}`,
      kind: "trigger" as const,
      label: t.what,
      description: `${t.state} · ${t.decision}`,
      tooltip: `${t.source} trigger ${t.id} at ${new Date(t.time).toLocaleTimeString()}\n${t.state}: ${t.decision}`,
      icon: stateIcons[t.state],
      swarmId: view.id,
    }));
}
