// Whether a standing swarm is still served: it runs until stopped, but only its router turns new triggers into
// work. When the router ended for good (its budget spent, it crashed, it finished) and no newer router took its
// seat, the swarm still "runs" while every new trigger waits in its log: the views say "not served" then, and
// the notice says why and what to do. A router that ends having decided something is forked again at once
// (standingSwarm.ts), so the host waits a moment before it tells the person (notServedNotices.ts).
import { routerRoleName } from "../protocol/triggers";
import type { AgentView, SwarmViewState } from "./swarmViewState";

const endedStates = new Set(["done", "failed"]);

export interface NotServed {
  /** The router that ended last. */
  readonly router: string;
  /** Why it ended, as the worker said ("step budget of 120 steps spent"), when it said. */
  readonly reason?: string;
  /** How many triggers wait for a router now. */
  readonly waiting: number;
}

/** Undefined while the swarm is served (or is not a running standing swarm). */
export function notServed(view: SwarmViewState): NotServed | undefined {
  if (view.status !== "running") return undefined;
  const routers = view.agents.filter((a) => a.role === routerRoleName);
  const last: AgentView | undefined = routers.at(-1);
  if (last === undefined || !endedStates.has(last.state)) return undefined;
  const waiting = (view.triggers?.recent ?? []).filter((t) => t.state === "waiting" || t.state === "held").length;
  return { router: last.id, ...(last.reason !== undefined ? { reason: last.reason } : {}), waiting };
}

/** The budget setting that ran out, named as the recipe spells it, when the reason says which. */
export function spentBudget(reason: string | undefined): string | undefined {
  if (reason === undefined) return undefined;
  if (/token budget/i.test(reason)) return "budgets.tokensPerAgent";
  if (/step budget/i.test(reason)) return "budgets.steps";
  return undefined;
}

/** The notice: what happened, what it means for new triggers, what to do. */
export function notServedText(view: SwarmViewState, why: NotServed): string {
  const ended = `its router ${why.router} ended${why.reason !== undefined ? ` (${why.reason})` : ""}`;
  const waiting =
    why.waiting > 0
      ? `${why.waiting} trigger${why.waiting === 1 ? " waits" : "s wait"} in its log, and new ones will too`
      : "new triggers wait in its log";
  const budget = spentBudget(why.reason);
  const raise =
    budget !== undefined
      ? `Raise ${budget} in the recipe (${view.recipe}: a copy in .swarmboard/recipes/), then `
      : "Look at the router's lane for why, then ";
  return (
    `Swarmboard: the watching swarm ${view.id} is not served: ${ended}; ${waiting}. ` +
    `${raise}Stop Watching and Resume the swarm: a fresh router reads the waiting triggers.`
  );
}
