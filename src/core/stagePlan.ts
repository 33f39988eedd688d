// Which roles run when, from a recipe's topology: a list of stages, each a set of roles that run together and
// the stages it waits for. Every topology is such a graph: fanout is one stage, a chain is one stage per role
// each after the one before, a DAG is its declared stages. A stage starts as soon as the stages it comes after
// are done (src/core/stageSchedule.ts), not when a whole "wave" is. The synthesist is never in a stage: it fans
// in at the end; a stage left empty without it is dropped and whoever waited for it waits for what it waited for.
import type { Recipe } from "../protocol/recipe";

export interface PlannedStage {
  readonly name: string;
  readonly roles: readonly string[];
  /** Indexes of the stages it starts after, each smaller than its own (the plan is in a topological order). */
  readonly after: readonly number[];
}

export type StagePlan = readonly PlannedStage[];

interface DeclaredStage {
  readonly name: string;
  readonly roles: readonly string[];
  readonly after: readonly string[];
}

export function planStages(recipe: Recipe): StagePlan {
  const synth = recipe.synthesist;
  const keep = (roles: readonly string[]) => roles.filter((r) => r !== synth);
  const topology = recipe.topology;
  switch (topology.kind) {
    case "fanout":
      return ordered(recipe.name, [{ name: "fanout", roles: keep(recipe.roles.map((r) => r.name)), after: [] }]);
    case "chain": {
      // A role may come twice in a chain: each step is its own stage, named by its place.
      const names = topology.order.map((role, i) => `${i + 1}-${role}`);
      const steps = topology.order.map((role, i) => ({
        name: names[i]!,
        roles: keep([role]),
        after: names.slice(i - 1, i),
      }));
      return ordered(recipe.name, steps);
    }
    case "dag":
      return ordered(
        recipe.name,
        topology.stages.map((s) => ({ name: s.name, roles: keep(s.roles), after: s.after })),
      );
  }
}

/**
 * Drops empty stages (their waiters inherit what they waited for), then orders the rest: repeatedly the first
 * stage in declared order whose prerequisites are placed, so seats are numbered the same way every run.
 */
function ordered(recipeName: string, declared: readonly DeclaredStage[]): StagePlan {
  const byName = new Map(declared.map((s) => [s.name, s]));
  const waitsFor = (names: readonly string[], seen = new Set<string>()): string[] =>
    names.flatMap((n) => {
      const stage = byName.get(n);
      if (stage === undefined || seen.has(n)) return [];
      seen.add(n);
      return stage.roles.length > 0 ? [n] : waitsFor(stage.after, seen);
    });
  const stages = declared
    .filter((s) => s.roles.length > 0)
    .map((s) => ({ ...s, after: [...new Set(waitsFor(s.after))] }));
  const placed = new Map<string, number>();
  const plan: PlannedStage[] = [];
  while (plan.length < stages.length) {
    const next = stages.find((s) => !placed.has(s.name) && s.after.every((a) => placed.has(a)));
    if (next === undefined) {
      const stuck = stages.filter((s) => !placed.has(s.name)).map((s) => s.name);
      throw new Error(`Recipe ${recipeName}: its stages wait on each other in a cycle (${stuck.join(", ")}).`);
    }
    placed.set(next.name, plan.length);
    plan.push({ name: next.name, roles: next.roles, after: next.after.map((a) => placed.get(a)!) });
  }
  return plan;
}
