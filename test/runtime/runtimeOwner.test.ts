// The runtime's owner and the local engine over it (stories260K, real runtime): a model is loaded once per owner;
// a finished swarm's context goes back to the owner and the next swarm of the same shape gets it with its trunk
// (no pool sized, only what differs decoded), one of another shape gets a new context; disposing the engine closes
// the contexts it still holds, and disposing the owner closes the kept context, then the models, then the Llama.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { openEngine } from "../../src/runtime/engines";
import type { SwarmEngine } from "../../src/runtime/port/engine";
import type { TrunkRequest } from "../../src/runtime/port/engineShapes";
import { RuntimeOwner } from "../../src/runtime/runtimeOwner";
import { SwarmRuntimeError } from "../../src/runtime/runtimeErrors";
import { sharedModelPath, storyTrunk } from "./runtimeTestModels";

const isDisposed = (error: unknown) => error instanceof SwarmRuntimeError && error.code === "context-disposed";

describe("the runtime's owner and the local engine (stories260K)", () => {
  let owner: RuntimeOwner;
  let engine: SwarmEngine;
  let poolsSized: number;
  const sizePool = async () => {
    poolsSized++;
    return { cells: 1024, origin: "the test" };
  };
  const request = (maxAgents: number): TrunkRequest => ({
    shape: { model: engine.model, maxAgents, threads: 1, kvCacheType: undefined, caps: [1024] },
    stateFile: undefined,
  });

  before(async () => {
    owner = new RuntimeOwner();
    engine = await openEngine({ kind: "local" }, { modelPath: sharedModelPath("stories260K.gguf"), threads: 1 }, owner);
    poolsSized = 0;
  });
  after(() => owner.dispose());

  it("loads a model once per owner: the engine's model is the owner's", async () => {
    const again = await owner.loadModel({ modelPath: sharedModelPath("stories260K.gguf"), threads: 1 });
    assert.equal(again, engine.model);
  });

  it("hands a kept trunk to the next swarm of the same shape, and a new context to another shape", async () => {
    const tokens = engine.model.tokenize(storyTrunk);
    const first = await engine.openTrunk(tokens, request(2), sizePool);
    assert.equal(first.trunkReuse, undefined, "a new context decodes its trunk");
    assert.equal(poolsSized, 1);
    await engine.keepTrunk(first.context, request(2));

    const longer = [...tokens, ...engine.model.tokenize(" She ran to get it.")];
    const second = await engine.openTrunk(longer, request(2), sizePool);
    assert.equal(second.context, first.context, "the kept context, not a new one");
    assert.equal(poolsSized, 1, "a kept context needs no pool sized");
    assert.ok(second.trunkReuse !== undefined && second.trunkReuse.reusedTokens >= tokens.length - 1);
    assert.ok(second.trunkReuse.decodedTokens < longer.length - tokens.length + 2, "only the new tail is decoded");
    await engine.keepTrunk(second.context, request(2));

    const other = await engine.openTrunk(tokens, request(3), sizePool);
    assert.notEqual(other.context, first.context);
    assert.equal(poolsSized, 2);
    await assert.rejects(first.context.fork("late"), isDisposed, "the kept context of another shape is disposed");
    await engine.keepTrunk(other.context, request(3));
  });

  it("gives the next swarm on a kept context its own cap, and a pool for more swarms a context of its own", async () => {
    const tokens = engine.model.tokenize(storyTrunk);
    const capped = { ...request(2), cellCap: 300, swarmId: "swarm-a" };
    const first = await engine.openTrunk(tokens, capped, sizePool);
    assert.equal(first.context.stats().share?.capCells, 300);
    await engine.keepTrunk(first.context, capped);

    const uncapped = { ...request(2), swarmId: "swarm-b" };
    const second = await engine.openTrunk(tokens, uncapped, sizePool);
    assert.equal(second.context, first.context, "the kept context");
    assert.equal(
      second.context.stats().share?.capCells,
      undefined,
      "alone on a pool for one: no cap, not the last 300",
    );
    await engine.keepTrunk(second.context, uncapped);

    // Sized for one swarm, the kept pool is not what a launch sized for two asks for: it gets a pool of that size.
    const sized = poolsSized;
    const forTwo: TrunkRequest = { ...request(2), shape: { ...request(2).shape, poolSwarms: 2 }, poolSwarms: 2 };
    const third = await engine.openTrunk(tokens, forTwo, sizePool);
    assert.notEqual(third.context, first.context);
    assert.equal(poolsSized, sized + 1);
    assert.equal(third.context.stats().share?.capCells, 512, "a fair half of the 1,024 cells");
    await engine.keepTrunk(third.context, forTwo);
  });

  it("disposes the contexts an engine still holds, and leaves the kept one to the owner", async () => {
    const held = await engine.createContext({ maxAgents: 1, kvCells: 512, threads: 1 });
    const kept = await engine.openTrunk(engine.model.tokenize(storyTrunk), request(3), sizePool);
    await engine.keepTrunk(kept.context, request(3));
    await engine.dispose();
    await assert.rejects(held.fork("late"), isDisposed);
    const agent = await kept.context.fork("still-kept");
    await agent.release();
  });

  it("saves a kept trunk to its state file, and another owner's engine restores it without decoding", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "swarmboard-owner-"));
    const later = new RuntimeOwner();
    try {
      const saving = { ...request(4), stateFile: path.join(dir, "trunk.json") };
      const tokens = engine.model.tokenize(storyTrunk);
      const first = await engine.openTrunk(tokens, saving, sizePool);
      assert.ok(first.context.stats().dispatches > 0, "the first trunk is decoded");
      await engine.keepTrunk(first.context, saving);
      assert.ok(existsSync(saving.stateFile) && existsSync(`${saving.stateFile}.kv`), "the trunk's state is on disk");

      const model = await later.loadModel({ modelPath: sharedModelPath("stories260K.gguf"), threads: 1 });
      const fresh = await openEngine({ kind: "local" }, { modelPath: model.facts.path, threads: 1 }, later);
      const restoring = { ...saving, shape: { ...saving.shape, model: fresh.model } };
      const restored = await fresh.openTrunk(tokens, restoring, sizePool);
      assert.notEqual(restored.context, first.context);
      assert.equal(restored.context.stats().dispatches, 0, "restored from the state file, nothing decoded");
      assert.deepEqual(restored.context.trunkTokens, first.context.trunkTokens);
      await fresh.dispose();
    } finally {
      await later.dispose();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("disposes the kept context, the model and the Llama in order, and loads nothing after", async () => {
    const kept = await engine.openTrunk(engine.model.tokenize(storyTrunk), request(3), sizePool);
    await engine.keepTrunk(kept.context, request(3));
    const { llama } = await owner.llama(false);
    await owner.dispose();
    await assert.rejects(kept.context.fork("late"), isDisposed);
    assert.equal(engine.model.model.disposed, true);
    assert.equal(llama.disposed, true);
    await assert.rejects(owner.loadModel({ modelPath: sharedModelPath("stories260K.gguf"), threads: 1 }), isDisposed);
  });
});
