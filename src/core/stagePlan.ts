// Which roles run when, from a recipe's topology: a list of stages, each a set of roles that run together,
// each starting when the one before has ended. The synthesist is never in a stage: it fans in at the end.
import type { Recipe } from "../protocol/recipe";

export type StagePlan = ReadonlyArray<readonly string[]>;

export function planStages(recipe: Recipe): StagePlan {
  const synth = recipe.synthesist;
  const keep = (roles: readonly string[]) => roles.filter((r) => r !== synth);
  const topology = recipe.topology;
  switch (topology.kind) {
    case "fanout":
      return nonEmpty([keep(recipe.roles.map((r) => r.name))]);
    case "chain":
      return nonEmpty(keep(topology.order).map((r) => [r]));
    case "dag": {
      // Kahn's order over stages; stages whose prerequisites are all placed run in the same wave.
      const placed = new Set<string>();
      const waves: string[][] = [];
      let remaining = [...topology.stages];
      while (remaining.length > 0) {
        const ready = remaining.filter((s) => s.after.every((a) => placed.has(a)));
        if (ready.length === 0)
          throw new Error(
            `Recipe ${recipe.name}: its stages wait on each other in a cycle (${remaining.map((s) => s.name).join(", ")}).`,
          );
        waves.push(keep(ready.flatMap((s) => s.roles)));
        for (const s of ready) placed.add(s.name);
        remaining = remaining.filter((s) => !placed.has(s.name));
      }
      return nonEmpty(waves);
    }
  }
}

function nonEmpty(stages: string[][]): StagePlan {
  return stages.filter((s) => s.length > 0);
}
