// A Q8_0 KV cache on the real runtime (a generated llama-shape model whose heads are one Q8_0 block wide): the
// pool's type and cost per cell are what the budget shows, forks stay free, the ledger stays equal to llama.cpp's
// own positions, release frees exactly an agent's private cells, and admission refuses at the exact count. A model
// whose heads are not whole blocks is refused with a message that says why.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { tinyShape, type LlamaShape } from "../fixtures/gguf/llamaShape";
import { writeLlamaGguf } from "../fixtures/gguf/writeLlamaGguf";
import type { SwarmModel } from "../../src/runtime/loadModel";
import { KvAdmissionError, KvCacheTypeError } from "../../src/runtime/runtimeErrors";
import { createSwarmContext, type SwarmContext } from "../../src/runtime/local/swarmContext";
import { testRuntime } from "./runtimeTestModels";

/** Head dimension 32 (width 64 over 2 heads): one Q8_0 block per head. */
const blockShape: LlamaShape = { layers: 2, width: 64, heads: 2, kvHeads: 1, ffn: 128, contextLength: 512 };
const trunkText = "Every agent reads the trunk for free; under Q8_0 its cells simply cost fewer bytes.";

function assertLedgerMatchesLlama(swarm: SwarmContext): void {
  for (const check of swarm.checkPositions()) {
    if (check.ledgerCells === 0) assert.deepEqual([check.llamaMinPosition, check.llamaMaxPosition], [-1, -1]);
    else assert.equal(check.llamaMaxPosition + 1, check.ledgerCells, `${check.id}: ledger and llama.cpp disagree`);
  }
}

describe("a quantised (Q8_0) KV cache (generated model, head dimension 32)", () => {
  let dir: string;
  let model: SwarmModel;
  let swarm: SwarmContext;
  let forced: ReturnType<SwarmModel["tokenize"]>;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "swarmboard-q8-kv-"));
    const file = path.join(dir, "block32.gguf");
    await writeLlamaGguf(file, { ...blockShape, tensorType: "F16", seed: 5 });
    model = await testRuntime.loadModel({ modelPath: file, threads: 1 });
    forced = model.tokenize(" and each agent went on with its own tail of tokens.".repeat(2));
  });

  after(async () => {
    await model.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    swarm = await createSwarmContext(model, { maxAgents: 4, kvCells: 512, threads: 1, kvCacheType: "q8_0" });
    await swarm.appendToTrunk(trunkText);
  });

  afterEach(async () => {
    await swarm.dispose();
  });

  it("shows the Q8_0 type and its bytes per cell: 34/64 of F16's", () => {
    const stats = swarm.stats();
    const f16 = model.kvCellCost("f16").bytesPerCell;
    assert.equal(f16, 2 * 1 * (32 + 32) * 2);
    assert.equal(stats.kvType, "Q8_0");
    assert.equal(stats.bytesPerCell, (f16 * 34) / 64);
    assert.equal(stats.poolBytes, stats.poolCells * stats.bytesPerCell);
    assert.equal(stats.mode, "shared-cells");
    assert.deepEqual(
      [stats.placement?.backend, stats.placement?.gpuLayers, stats.placement?.kvOn],
      ["cpu", 0, "ram"],
      "no GPU here: the model and the cells are in RAM",
    );
  });

  it("forks for no cells and no dispatch, and keeps the ledger equal to llama.cpp through generation", async () => {
    const before = swarm.stats();
    const agents = [await swarm.fork("q1", { expectedTail: 8 }), await swarm.fork("q2", { expectedTail: 8 })];
    const forked = swarm.stats();
    assert.equal(forked.usedCells, before.usedCells, "forks take no cells");
    assert.equal(forked.dispatches, before.dispatches, "forks decode nothing");
    assert.equal(forked.trunkOwners, 2);
    const results = await Promise.all(
      agents.map((agent) => agent.generate({ maxTokens: 8, forcedTokens: forced.slice(0, 8) })),
    );
    assert.deepEqual(
      results.map((result) => result.stopReason),
      ["max-tokens", "max-tokens"],
    );
    const after = swarm.stats();
    assert.equal(after.dispatches - forked.dispatches, 8, "one dispatch per step for both agents");
    assert.equal(after.usedCells, before.usedCells + 16);
    assertLedgerMatchesLlama(swarm);
    const child = await swarm.fork("q3", { from: agents[0], expectedTail: 4 });
    await child.generate({ maxTokens: 4, forcedTokens: forced.slice(8, 12) });
    assertLedgerMatchesLlama(swarm);
    const used = swarm.stats().usedCells;
    await agents[1].release();
    assert.equal(swarm.stats().usedCells, used - 8, "release frees exactly the agent's 8 private cells");
    assertLedgerMatchesLlama(swarm);
  });

  it("refuses a fork at the exact count of free cells", async () => {
    const stats = swarm.stats();
    // A fork may have the pool's free cells, and no more than one sequence can hold beside the trunk's.
    const free = Math.min(stats.freeCells, stats.sequenceCellLimit - 1 - stats.trunkCells);
    await assert.rejects(swarm.fork("big", { expectedTail: free + 1 }), (error: unknown) => {
      assert.ok(error instanceof KvAdmissionError);
      assert.equal(error.availableCells, free);
      return true;
    });
    const fits = await swarm.fork("fits", { expectedTail: free });
    assert.equal(swarm.stats().reservedCells, free);
    await fits.release();
  });

  it("refuses Q8_0 for a model whose heads are not whole blocks, naming the head size", async () => {
    const small = path.join(dir, "head16.gguf");
    await writeLlamaGguf(small, { ...tinyShape, tensorType: "F16", seed: 6 });
    const narrow = await testRuntime.loadModel({ modelPath: small, threads: 1 });
    try {
      assert.throws(
        () => narrow.kvCellCost("q8_0"),
        (error: unknown) =>
          error instanceof KvCacheTypeError && /32 values per block.*16 \(keys\) and 16 \(values\)/.test(error.message),
      );
      await assert.rejects(
        createSwarmContext(narrow, { maxAgents: 1, kvCells: 256, threads: 1, kvCacheType: "q8_0" }),
        KvCacheTypeError,
      );
    } finally {
      await narrow.dispose();
    }
  });
});
