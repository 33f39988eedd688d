// The seats a swarm plans before anything forks: the working seats, and the sequences kept for sub-agents (the
// recipe's budgets.subagents, 2 when it does not say); a spawn past them is refused in the recipe's terms.
import assert from "node:assert/strict";
import { builtinRecipes } from "../../../src/core/recipeCatalog";
import { recipeSchema } from "../../../src/protocol/recipe";
import { SwarmRuntimeError } from "../../../src/runtime/runtimeErrors";
import { noSubagentSeat, planSeats } from "../../../src/worker/swarm/seatPlan";

const organization = () => builtinRecipes().get("organization")!;

describe("the seat plan", () => {
  it("keeps 2 sub-agent seats when the recipe does not say, and the recipe's number when it does", () => {
    assert.equal(planSeats(organization(), 3).subagentSeats, 2);
    const recipe = recipeSchema.parse({
      ...organization(),
      budgets: { ...organization().budgets, subagents: 6 },
    });
    assert.equal(planSeats(recipe, 3).subagentSeats, 6);
    assert.equal(planSeats(recipe, 3).widestStage, 3);
  });

  it("refuses a negative number of sub-agents in a recipe, naming the field", () => {
    const parsed = recipeSchema.safeParse({ ...organization(), budgets: { ...organization().budgets, subagents: -1 } });
    assert.equal(parsed.success, false);
    assert.match(JSON.stringify(parsed.error?.issues), /budgets.*subagents|expected zero or more sub-agents/);
  });

  it("says a spawn past the seats in the recipe's terms, and passes other errors on as they are", () => {
    const plan = planSeats(organization(), 3);
    const said = noSubagentSeat(plan, new SwarmRuntimeError("no-sequence-left", "All 5 agent seats are taken"));
    assert.match(String((said as Error).message), /keeps 2 sequence\(s\) for sub-agents beyond its 3 working seat/);
    assert.match(String((said as Error).message), /collect_subagents.*budgets\.subagents/);
    const other = new SwarmRuntimeError("invalid-request", "something else");
    assert.equal(noSubagentSeat(plan, other), other);
  });
});
