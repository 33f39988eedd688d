// The core runtime proofs again, on a model the test writes itself (random weights, byte vocabulary), so they
// hold for a model nobody trained and run anywhere without downloads. Forced tokens keep runs deterministic:
// a random model may sample its end-of-sequence token at any step.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { kvBytesPerCell, tinyShape } from "../fixtures/gguf/llamaShape";
import { writeLlamaGguf } from "../fixtures/gguf/writeLlamaGguf";
import type { SwarmModel } from "../../src/runtime/loadModel";
import { createSwarmContext, type SwarmContext } from "../../src/runtime/local/swarmContext";
import { testRuntime } from "./runtimeTestModels";

const trunkText = "The swarm shares one trunk of context. Every agent reads it for free and writes only its own tail.";

describe("the runtime on a generated model (tiny llama shape, F16, random weights)", () => {
  let dir: string;
  let model: SwarmModel;
  let swarm: SwarmContext;
  let forced: ReturnType<SwarmModel["tokenize"]>;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "swarmboard-runtime-gguf-"));
    const file = path.join(dir, "tiny.gguf");
    await writeLlamaGguf(file, { ...tinyShape, tensorType: "F16", seed: 11 });
    model = await testRuntime.loadModel({ modelPath: file, threads: 1 });
    forced = model.tokenize(" and then the agents went on writing, each one alone, for a long while.".repeat(3));
  });

  after(async () => {
    await model.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    swarm = await createSwarmContext(model, { maxAgents: 4, kvCells: 256, threads: 1 });
    await swarm.appendToTrunk(trunkText);
  });

  afterEach(async () => {
    await swarm.dispose();
  });

  it("reports shared cells and the shape's bytes per cell", () => {
    assert.equal(swarm.mode, "shared-cells");
    assert.equal(model.facts.kvBytesPerCell, kvBytesPerCell(tinyShape));
    assert.equal(swarm.stats().trunkCells, trunkText.length, "BOS + one token per byte, the last one pending");
  });

  it("forks for 0 cells and 0 dispatches, then generates in one dispatch per step", async () => {
    const before = swarm.stats();
    const agents = [
      await swarm.fork("a1", { expectedTail: 12 }),
      await swarm.fork("a2", { expectedTail: 12 }),
      await swarm.fork("a3", { expectedTail: 12 }),
    ];
    const forkedStats = swarm.stats();
    assert.equal(forkedStats.usedCells, before.usedCells);
    assert.equal(forkedStats.dispatches, before.dispatches);

    const results = await Promise.all(
      agents.map((agent) => agent.generate({ maxTokens: 12, forcedTokens: forced.slice(0, 12) })),
    );
    const after = swarm.stats();
    assert.deepEqual(
      results.map((result) => result.stopReason),
      ["max-tokens", "max-tokens", "max-tokens"],
    );
    assert.equal(after.dispatches - forkedStats.dispatches, 12);
    assert.equal(after.dispatchedTokens - forkedStats.dispatchedTokens, 36);
    assert.deepEqual(results[1].sampledTokens, results[0].sampledTokens, "forced runs are deterministic");
    for (const check of swarm.checkPositions()) assert.equal(check.llamaMaxPosition + 1, check.ledgerCells, check.id);

    const used = after.usedCells;
    await agents[0].release();
    assert.equal(swarm.stats().usedCells, used - 12, "release frees the agent's 12 private cells");
  });

  it("pauses the agent that runs out of cells while the others finish", async () => {
    const events: string[] = [];
    swarm.onKvFull((event) => events.push(event.agentId));
    const steady = [await swarm.fork("a4", { expectedTail: 10 }), await swarm.fork("a5", { expectedTail: 10 })];
    const greedy = await swarm.fork("a6", { expectedTail: 1 });
    const results = await Promise.all([
      ...steady.map((agent) => agent.generate({ maxTokens: 10, forcedTokens: forced.slice(0, 10) })),
      greedy.generate({ maxTokens: forced.length, forcedTokens: forced }),
    ]);
    assert.deepEqual(
      results.map((result) => result.stopReason),
      ["max-tokens", "max-tokens", "kv-full"],
    );
    assert.deepEqual(events, [greedy.id]);
    const stats = swarm.stats();
    assert.equal(stats.usedCells, stats.poolCells, "the greedy agent filled every unpromised cell");
  });
});
