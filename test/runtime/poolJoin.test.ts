// A swarm joining a running swarm's pool through the local engine (stories260K, real runtime): a second swarm of the
// same model and settings gets a context on the first one's pool (no second pool sized, its shared trunk start
// forked), its launch cap shows in its budget, and one that does not fit is refused with the numbers.
import assert from "node:assert/strict";
import { openEngine } from "../../src/runtime/engines";
import type { SwarmEngine } from "../../src/runtime/port/engine";
import type { TrunkRequest } from "../../src/runtime/port/engineShapes";
import { RuntimeOwner } from "../../src/runtime/runtimeOwner";
import { SwarmRuntimeError } from "../../src/runtime/runtimeErrors";
import { sharedModelPath, storyTrunk } from "./runtimeTestModels";

describe("a swarm joining a running swarm's pool (stories260K)", () => {
  let owner: RuntimeOwner;
  let engine: SwarmEngine;
  let poolsSized = 0;
  const sizePool = async () => {
    poolsSized++;
    return { cells: 1024, origin: "the test" };
  };
  const request = (swarmId: string, cellCap?: number): TrunkRequest => ({
    shape: { model: engine.model, maxAgents: 2, threads: 1, kvCacheType: undefined, caps: [1024] },
    stateFile: undefined,
    swarmId,
    ...(cellCap === undefined ? {} : { cellCap }),
  });

  before(async () => {
    owner = new RuntimeOwner();
    engine = await openEngine({ kind: "local" }, { modelPath: sharedModelPath("stories260K.gguf"), threads: 1 }, owner);
  });
  after(() => owner.dispose());

  it("joins the first swarm's pool, forks its trunk start, refuses a share that does not fit, and gives a swarm without one a pool beside", async () => {
    const tokens = engine.model.tokenize(storyTrunk);
    const first = await engine.openTrunk(tokens, request("swarm-a"), sizePool);
    const longer = [...tokens, ...engine.model.tokenize(" She ran to get it and threw it high.")];
    const second = await engine.openTrunk(longer, request("swarm-b", 300), sizePool);
    assert.equal(poolsSized, 1, "the second swarm needs no pool of its own");
    assert.notEqual(second.context, first.context);
    assert.ok(second.trunkReuse !== undefined && second.trunkReuse.reusedTokens >= tokens.length - 1);
    const secondTrunk = second.context.trunkTokens; // with the BOS the engine puts first
    assert.equal(second.trunkReuse.decodedTokens, secondTrunk.length - 1 - second.trunkReuse.reusedTokens);
    assert.deepEqual(second.context.stats().share, {
      swarms: 2,
      capCells: 300,
      usedCells: second.trunkReuse.decodedTokens,
    });
    assert.equal(first.context.stats().share?.swarms, 2, "the first swarm's budget shows it shares its pool");

    // What is free, less what is left of the second swarm's cap (kept for it).
    const free = 1024 - first.context.stats().usedCells - (300 - second.trunkReuse.decodedTokens);
    await assert.rejects(engine.openTrunk(tokens, request("swarm-c", 5000), sizePool), (error: unknown) => {
      assert.ok(error instanceof SwarmRuntimeError && error.code === "pool-full", String(error));
      assert.match(error.message, /needs 5,000 KV cells and 4 sequences/);
      const decoded = second.trunkReuse!.decodedTokens;
      const kept = `${300 - decoded} more kept for its cap`;
      assert.match(error.message, /swarm-a \([\d,]+ cells written, 0 promised to its agents; 4 sequences\)/);
      assert.ok(error.message.includes(`swarm-b (${decoded} cells written, 0 promised to its agents, ${kept}; 4 `));
      assert.ok(error.message.includes(`the pool has ${free} of 1,024 cells`), error.message);
      return true;
    });

    // Without a share of its own asked for, a swarm the pool has no room for gets a pool beside it (one model load).
    const other = engine.model.tokenize(" A cat sat on the mat and looked at the moon.".repeat(80)).slice(0, 900);
    const fourth = await engine.openTrunk(other, request("swarm-d"), sizePool);
    assert.equal(poolsSized, 2, "the fourth swarm got a pool of its own");
    assert.equal(fourth.context.stats().share, undefined, "alone on its pool");
    assert.equal(first.context.stats().share?.swarms, 2, "the first pool still holds two swarms");
    await fourth.context.dispose();

    await first.context.dispose();
    const agent = await second.context.fork("agent-1");
    assert.equal((await agent.generate({ maxTokens: 4 })).tokens.length, 4, "the pool outlives its first swarm");
    await second.context.dispose();
  });
});
