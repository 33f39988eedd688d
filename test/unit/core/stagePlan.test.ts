import { strict as assert } from "assert";
import { builtinRecipes } from "../../../src/core/recipeCatalog";
import { parseRecipeValue } from "../../../src/core/recipeParse";
import { widestOverlap } from "../../../src/core/stageOverlap";
import { planStages, type StagePlan } from "../../../src/core/stagePlan";
import type { Recipe, RecipeInput } from "../../../src/protocol/recipe";

const role = (name: string, count = 1) => ({ name, count, tools: ["grep_board"], instructions: `Be a ${name}.` });

function recipe(topology: RecipeInput["topology"], roles: string[], synthesist?: string): Recipe {
  const parsed = parseRecipeValue("test", {
    name: "t",
    description: "t",
    roles: roles.map((r) => role(r)),
    topology,
    ...(synthesist ? { synthesist } : {}),
    budgets: { wallClockMs: 1000, tokensPerAgent: 100, kvCells: 1000, steps: 5 },
  });
  assert.ok(parsed.ok, JSON.stringify(parsed));
  return parsed.recipe;
}

const shape = (plan: StagePlan) => plan.map((s) => `${s.name}:${s.roles.join("+")}<${s.after.join(",")}`);

describe("stage plan (topologies as declared)", () => {
  it("runs a fanout as one stage of every working role, the synthesist left for fan-in", () => {
    const plan = planStages(recipe({ kind: "fanout" }, ["a", "b", "syn"], "syn"));
    assert.deepEqual(shape(plan), ["fanout:a+b<"]);
  });

  it("runs a chain as one stage per step, each after the one before (a role may come twice)", () => {
    const plan = planStages(recipe({ kind: "chain", order: ["scout", "coder", "scout"] }, ["scout", "coder"]));
    assert.deepEqual(shape(plan), ["1-scout:scout<", "2-coder:coder<0", "3-scout:scout<1"]);
  });

  it("bridges a chain over the synthesist's step: the step after it waits for the one before", () => {
    const plan = planStages(recipe({ kind: "chain", order: ["a", "syn", "b"] }, ["a", "b", "syn"], "syn"));
    assert.deepEqual(shape(plan), ["1-a:a<", "3-b:b<0"]);
  });

  it("keeps a DAG's dependencies per stage (no waves) and orders it so every stage follows what it waits for", () => {
    const plan = planStages(
      recipe(
        {
          kind: "dag",
          stages: [
            { name: "join", roles: ["d"], after: ["deep", "wide"] },
            { name: "deep", roles: ["c"], after: ["quick"] },
            { name: "quick", roles: ["a"] },
            { name: "wide", roles: ["b"] },
          ],
        },
        ["a", "b", "c", "d"],
      ),
    );
    assert.deepEqual(shape(plan), ["quick:a<", "deep:c<0", "wide:b<", "join:d<1,2"]);
    // "deep" waits only for "quick", not for "wide" (which a wave plan would have put beside "quick").
    for (const [i, s] of plan.entries()) for (const a of s.after) assert.ok(a < i, `${s.name} after an earlier stage`);
  });

  it("drops a DAG stage that holds only the synthesist and passes its waits on", () => {
    const plan = planStages(
      recipe(
        {
          kind: "dag",
          stages: [
            { name: "a", roles: ["a"] },
            { name: "review", roles: ["syn"], after: ["a"] },
            { name: "b", roles: ["b"], after: ["review"] },
          ],
        },
        ["a", "b", "syn"],
        "syn",
      ),
    );
    assert.deepEqual(shape(plan), ["a:a<", "b:b<0"]);
  });

  it("refuses a cycle, naming the stages in it", () => {
    const cyclic = {
      ...recipe({ kind: "fanout" }, ["a", "b"]),
      topology: {
        kind: "dag" as const,
        stages: [
          { name: "x", roles: ["a"], after: ["y"] },
          { name: "y", roles: ["b"], after: ["x"] },
        ],
      },
    };
    assert.throws(() => planStages(cyclic), /Recipe t: its stages wait on each other in a cycle \(x, y\)/);
  });

  it("plans every built-in recipe with each stage after stages before it", () => {
    for (const r of builtinRecipes().values()) {
      const plan = planStages(r);
      assert.ok(plan.length > 0, r.name);
      assert.ok(!plan.some((s) => s.roles.includes(r.synthesist ?? "")), `${r.name}: no synthesist in a stage`);
      for (const [i, s] of plan.entries())
        assert.ok(
          s.after.every((a) => a < i),
          `${r.name}: ${s.name}`,
        );
    }
  });
});

describe("widest overlap of a stage graph", () => {
  const stage = (name: string, after: number[] = []) => ({ name, roles: [name], after });

  it("adds independent branches and never stages one of which waits on the other", () => {
    // quick(1) -> deep(3), wide(2) -> join(1): deep may run beside wide (5 seats), join runs alone.
    const plan = [stage("quick"), stage("deep", [0]), stage("wide"), stage("join", [1, 2])];
    const seats = [1, 3, 2, 1];
    assert.equal(
      widestOverlap(plan, (i) => seats[i]!),
      5,
    );
    const chain = [stage("a"), stage("b", [0]), stage("c", [1])];
    assert.equal(
      widestOverlap(chain, (i) => [2, 4, 3][i]!),
      4,
    );
  });

  it("sees waits through intermediate stages (a stage never overlaps what it waits on indirectly)", () => {
    const plan = [stage("a"), stage("b", [0]), stage("c", [1]), stage("side")];
    assert.equal(
      widestOverlap(plan, (i) => [5, 1, 5, 1][i]!),
      6,
    );
  });

  it("finds the sum at once for many independent stages", () => {
    const plan = Array.from({ length: 40 }, (_, i) => stage(`s${i}`));
    assert.equal(
      widestOverlap(plan, () => 2),
      80,
    );
  });
});
