// Budgets of a swarm (from its recipe). The wall clock does not simply kill the swarm: when it is nearly
// spent the workers stop and the synthesist fans in with what exists; only at the end is everything stopped.
import type { Budgets } from "../protocol/recipe";

export type SwarmBudgetAction =
  | { readonly action: "continue" }
  | { readonly action: "fanIn"; readonly reason: string }
  | { readonly action: "stop"; readonly reason: string };

/** Share of the wall clock kept for fan-in (default 15%, at least 30 s when the budget allows). */
export function fanInReserveMs(budgets: Budgets, share = 0.15): number {
  return Math.min(budgets.wallClockMs / 2, Math.max(30_000, Math.round(budgets.wallClockMs * share)));
}

export function swarmBudgetAction(
  budgets: Budgets,
  startedAt: number,
  now: number,
  reserveMs = fanInReserveMs(budgets),
): SwarmBudgetAction {
  const elapsed = now - startedAt;
  if (elapsed >= budgets.wallClockMs)
    return { action: "stop", reason: `wall-clock budget of ${budgets.wallClockMs} ms spent` };
  if (elapsed >= budgets.wallClockMs - reserveMs) {
    return {
      action: "fanIn",
      reason: `wall-clock budget nearly spent (${elapsed} of ${budgets.wallClockMs} ms): the synthesist fans in with what exists`,
    };
  }
  return { action: "continue" };
}

export interface AgentUsage {
  readonly steps: number;
  readonly tokens: number;
}

/** Why an agent must stop for its own budget (steps, tokens), or undefined. */
export function agentBudgetExceeded(budgets: Budgets, usage: AgentUsage): string | undefined {
  if (usage.steps >= budgets.steps) return `step budget of ${budgets.steps} steps spent`;
  if (usage.tokens >= budgets.tokensPerAgent) return `token budget of ${budgets.tokensPerAgent} tokens spent`;
  return undefined;
}
