// The memory budget (swarmboard.memoryBudget, --memory-budget): how it is written, and what it does to the pool
// the swarm gets (its cells at the model's bytes per cell), including the refusal of one too small for any pool.
import assert from "node:assert/strict";
import { parseCommandLine, UsageError } from "../../../src/cli/args";
import { builtinRecipes } from "../../../src/core/recipeCatalog";
import { parseMemoryBudget, settingsSchema } from "../../../src/protocol/settings";
import type { SwarmModel } from "../../../src/runtime/loadModel";
import { MemoryBudgetError, resolveKvPool } from "../../../src/worker/swarm/kvPool";

/** A model whose cells cost `bytesPerCell`, on a machine with `freeBytes` free: all resolveKvPool asks of one. */
function modelAt(bytesPerCell: number, freeBytes: number): SwarmModel {
  return {
    kvCellCost: () => ({ bytesPerCell, typeName: "F16" }),
    freeKvMemory: () => Promise.resolve({ freeBytes, where: "RAM" as const }),
  } as unknown as SwarmModel;
}

const recipe = builtinRecipes().get("organization")!;

describe("the memory budget", () => {
  it("reads a size with its unit: KB..TB in powers of 1000, KiB..TiB in powers of 1024, any case, spaces allowed", () => {
    assert.equal(parseMemoryBudget("6GB"), 6e9);
    assert.equal(parseMemoryBudget("6GiB"), 6 * 2 ** 30);
    assert.equal(parseMemoryBudget(" 512 MiB "), 512 * 2 ** 20);
    assert.equal(parseMemoryBudget("1.5gb"), 1.5e9);
    assert.equal(parseMemoryBudget("2TB"), 2e12);
    assert.equal(parseMemoryBudget("64KiB"), 65_536);
  });

  it("refuses a bare number, a unit alone, zero, a negative size and a one-letter unit", () => {
    for (const text of ["6", "GB", "0GB", "-1GB", "6G", "6 GB more", "", "six GB"])
      assert.equal(parseMemoryBudget(text), undefined, text);
  });

  it("is a setting: empty by default, a size when set, and a wrong one named with the form it takes", () => {
    assert.equal(settingsSchema.parse({}).memoryBudget, "");
    assert.equal(settingsSchema.parse({ memoryBudget: "6GB" }).memoryBudget, "6GB");
    const wrong = settingsSchema.safeParse({ memoryBudget: "6" });
    assert.equal(wrong.success, false);
    assert.match(wrong.error!.issues[0]!.message, /a size with its unit, like 6GB, 6GiB or 512MiB/);
    assert.deepEqual(wrong.error!.issues[0]!.path, ["memoryBudget"]);
  });

  it("is a flag of run, kept as written, unset by default; a wrong one says what it expects", () => {
    const run = parseCommandLine(["run", "--goal", "g", "--memory-budget", "6GB"]);
    assert.equal(run.command === "run" && run.memoryBudget, "6GB");
    const none = parseCommandLine(["run", "--goal", "g"]);
    assert.equal(none.command === "run" && none.memoryBudget, undefined);
    assert.throws(
      () => parseCommandLine(["run", "--goal", "g", "--memory-budget", "6"]),
      (error: Error) =>
        error instanceof UsageError && /--memory-budget expects a size with its unit.*got "6"/.test(error.message),
    );
  });

  it("caps the pool at the whole 256-cell blocks it holds at the model's bytes per cell, and says so", async () => {
    const pool = await resolveKvPool(modelAt(1024, 16 * 2 ** 30), {
      recipe,
      sequences: 12,
      memoryBudget: "3MiB",
    });
    assert.equal(pool.cells, 3072);
    const between = await resolveKvPool(modelAt(1000, 16 * 2 ** 30), { recipe, sequences: 12, memoryBudget: "3MiB" });
    assert.equal(between.cells, 3072, "3,145 cells held, rounded down to a block (llama.cpp would round up)");
    assert.match(
      pool.origin,
      /^3,072 cells set by the memory budget \(--memory-budget \/ swarmboard\.memoryBudget\) \(3MiB\)/,
    );
  });

  it("gives way to free memory when that holds less than the budget, and to a smaller cell cap", async () => {
    const byMemory = await resolveKvPool(modelAt(1024, 4 * 2 ** 20), { recipe, sequences: 12, memoryBudget: "1GB" });
    assert.equal(byMemory.cells, 2048, "half of 4 MiB free at 1 KiB per cell");
    assert.match(byMemory.origin, /below the 976,384 set by the memory budget/);
    const byCells = await resolveKvPool(modelAt(1024, 16 * 2 ** 30), {
      recipe,
      sequences: 12,
      memoryBudget: "1GB",
      kvCells: 512,
    });
    assert.equal(byCells.cells, 512);
  });

  it("refuses a budget below the smallest pool with the cells it holds and the size to give instead", async () => {
    await assert.rejects(
      resolveKvPool(modelAt(4096, 16 * 2 ** 30), { recipe, sequences: 12, memoryBudget: "100KB" }),
      (error: Error) => {
        assert.ok(error instanceof MemoryBudgetError);
        assert.equal(error.code, "memory-budget-too-small");
        assert.match(
          error.message,
          /memory budget of 100KB holds 24 KV cells of this model \(4,096 bytes per cell\), below the smallest pool of 256: give --memory-budget \(swarmboard\.memoryBudget\) 1MiB or more/,
        );
        return true;
      },
    );
  });
});
