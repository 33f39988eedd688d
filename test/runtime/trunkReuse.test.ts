// The trunk kept across swarms (stories260K, shared cells): a context that held one trunk takes the next one by
// decoding only what differs (counted with the dispatch counter), erases what no longer belongs, keeps the ledger
// equal to llama.cpp's positions, and its agents generate exactly what agents of a freshly decoded trunk generate.
import assert from "node:assert/strict";
import type { SwarmModel } from "../../src/runtime/loadModel";
import { SwarmRuntimeError } from "../../src/runtime/runtimeErrors";
import { createSwarmContext, type SwarmContext } from "../../src/runtime/local/swarmContext";
import { loadStoriesModel, storyTrunk } from "./runtimeTestModels";

type Tokens = SwarmContext["trunkTokens"];

function assertLedgerMatchesLlama(swarm: SwarmContext): void {
  for (const check of swarm.checkPositions())
    assert.equal(check.llamaMaxPosition + 1, check.ledgerCells, `${check.id}: ledger and llama.cpp disagree`);
}

/** Greedy tokens of one agent forked from the trunk: the same trunk cells must give the same tokens. */
async function greedyFromTrunk(swarm: SwarmContext, id: string): Promise<number[]> {
  const agent = await swarm.fork(id, { expectedTail: 12 });
  const result = await agent.generate({ maxTokens: 10, sampling: { temperature: 0 } });
  await agent.release();
  return result.tokens;
}

async function freshGreedy(model: SwarmModel, trunk: Tokens): Promise<number[]> {
  const fresh = await createSwarmContext(model, { maxAgents: 2, kvCells: 1024, threads: 1 });
  try {
    await fresh.appendToTrunk(trunk);
    return await greedyFromTrunk(fresh, "fresh");
  } finally {
    await fresh.dispose();
  }
}

describe("the trunk kept across swarms (stories260K, shared cells)", () => {
  let model: SwarmModel;
  let swarm: SwarmContext;
  let first: Tokens;

  before(async () => {
    model = await loadStoriesModel();
  });

  beforeEach(async () => {
    swarm = await createSwarmContext(model, { maxAgents: 2, kvCells: 1024, threads: 1 });
    await swarm.appendToTrunk(storyTrunk);
    first = swarm.trunkTokens;
    // The last swarm's agents worked and were released; the trunk's cells stayed.
    const agents = [await swarm.fork("old-1"), await swarm.fork("old-2")];
    await Promise.all(agents.map((agent) => agent.generate({ maxTokens: 6 })));
    await Promise.all(agents.map((agent) => agent.release()));
  });

  afterEach(async () => {
    await swarm.dispose();
  });

  it("decodes only the new part of a trunk that extends the last one, in one dispatch", async () => {
    const extra = model.tokenize(" Lily ran to the ball and kicked it.");
    const next = [...first, ...extra];
    assert.ok(swarm.stats().generatedTokens > 0, "the last swarm's agents generated");
    const reuse = await swarm.replaceTrunk(next);
    const after = swarm.stats();
    assert.deepEqual(reuse, { reusedTokens: first.length - 1, decodedTokens: extra.length });
    // The new swarm's counters start at its trunk: what they show is what replacing it cost.
    assert.equal(after.dispatchedTokens, extra.length, "only the new tokens decoded");
    assert.equal(after.dispatches, 1);
    assert.equal(after.generatedTokens, 0);
    assert.deepEqual(swarm.trunkTokens, next);
    assert.equal(after.trunkCells, next.length - 1);
    assert.equal(after.usedCells, after.trunkCells, "the old agents' tails are gone, the trunk is all that is used");
    assertLedgerMatchesLlama(swarm);
    assert.deepEqual(await greedyFromTrunk(swarm, "new-1"), await freshGreedy(model, next));
  });

  it("keeps the shared prefix of a trunk that differs after it, erasing the rest", async () => {
    const keep = Math.floor(first.length / 2);
    const tail = model.tokenize(" Tom had a little red car that he loved very much.");
    const next = [...first.slice(0, keep), ...tail];
    const reuse = await swarm.replaceTrunk(next);
    const after = swarm.stats();
    assert.deepEqual(reuse, { reusedTokens: keep, decodedTokens: tail.length - 1 });
    assert.equal(after.dispatchedTokens, tail.length - 1);
    assert.equal(after.trunkCells, next.length - 1);
    assertLedgerMatchesLlama(swarm);
    assert.deepEqual(await greedyFromTrunk(swarm, "new-2"), await freshGreedy(model, next));
  });

  it("decodes nothing for the same trunk again", async () => {
    assert.deepEqual(await swarm.replaceTrunk(first), { reusedTokens: first.length - 1, decodedTokens: 0 });
    assert.equal(swarm.stats().dispatches, 0);
    assertLedgerMatchesLlama(swarm);
  });

  it("refuses to replace the trunk under live agents", async () => {
    const live = await swarm.fork("live");
    assert.throws(() => swarm.replaceTrunk(first), SwarmRuntimeError);
    await live.release();
  });
});
