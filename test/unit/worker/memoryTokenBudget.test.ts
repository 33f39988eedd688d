// The trunk's memory budget comes from the recipe and the pool, never from a fixed number: budgets.memoryTokens
// when set (0 turns memory off), else a quarter of tokensPerAgent, and at most an eighth of a capped KV pool.
import assert from "node:assert/strict";
import { parseRecipeValue } from "../../../src/core/recipeParse";
import { memoryTokenBudget } from "../../../src/worker/swarm/swarmMemory";

function recipe(budgets: Record<string, number>) {
  const parsed = parseRecipeValue("t", {
    name: "t",
    description: "d",
    roles: [{ name: "worker", count: 1, tools: ["read_file"], instructions: "work" }],
    topology: { kind: "fanout" },
    budgets: { wallClockMs: 1000, steps: 3, ...budgets },
  });
  assert.ok(parsed.ok, JSON.stringify(parsed));
  return parsed.recipe;
}

describe("memory token budget", () => {
  it("is the recipe's memoryTokens, else a quarter of an agent's tokens, within an eighth of a capped pool", () => {
    assert.equal(memoryTokenBudget(recipe({ tokensPerAgent: 16_384 })), 4096);
    assert.equal(memoryTokenBudget(recipe({ tokensPerAgent: 16_384, memoryTokens: 600 })), 600);
    assert.equal(memoryTokenBudget(recipe({ tokensPerAgent: 16_384, memoryTokens: 0 })), 0);
    assert.equal(memoryTokenBudget(recipe({ tokensPerAgent: 16_384 }), 8192), 1024);
    assert.equal(memoryTokenBudget(recipe({ tokensPerAgent: 16_384, kvCells: 4096 }), 65_536), 512);
  });

  it("refuses a negative memoryTokens in a recipe with what was expected", () => {
    const parsed = parseRecipeValue("t", {
      name: "t",
      description: "d",
      roles: [{ name: "worker", count: 1, tools: ["read_file"], instructions: "work" }],
      topology: { kind: "fanout" },
      budgets: { wallClockMs: 1000, steps: 3, tokensPerAgent: 100, memoryTokens: -1 },
    });
    assert.ok(!parsed.ok);
    assert.match(JSON.stringify(parsed), /expected 0 \(no memory\) or a positive number of tokens/);
  });
});
