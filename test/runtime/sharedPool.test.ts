// Two swarms on one pool (stories260K, shared cells): the second swarm's trunk forks the start it shares with the
// first's live trunk (only its own rest is decoded, counted by the dispatch counter), agents of both swarms
// generate in the same `llama_decode` per step, each swarm's greedy text is what it is alone, the second swarm's
// cap holds, and the pool outlives its first swarm.
import assert from "node:assert/strict";
import type { SwarmModel } from "../../src/runtime/loadModel";
import { SwarmRuntimeError } from "../../src/runtime/runtimeErrors";
import { createSwarmContext, SwarmContext } from "../../src/runtime/local/swarmContext";
import { loadStoriesModel, storyTrunk } from "./runtimeTestModels";

type Tokens = SwarmContext["trunkTokens"];
const secondTrunk = storyTrunk + " Lily ran to the ball and picked it up. It was shiny and new.";
const greedy = { maxTokens: 10, sampling: { temperature: 0 } } as const;

function assertLedgerMatchesLlama(swarm: SwarmContext): void {
  for (const check of swarm.checkPositions())
    assert.equal(check.llamaMaxPosition + 1, check.ledgerCells, `${check.id}: ledger and llama.cpp disagree`);
}

/** One agent's greedy tokens from `trunk` on a context of its own. */
async function aloneGreedy(model: SwarmModel, trunk: string | Tokens): Promise<number[]> {
  const alone = await createSwarmContext(model, { maxAgents: 2, kvCells: 1024, threads: 1 });
  try {
    await alone.appendToTrunk(trunk);
    const agent = await alone.fork("agent-1", { expectedTail: 16 });
    return (await agent.generate(greedy)).tokens;
  } finally {
    await alone.dispose();
  }
}

describe("two swarms on one pool (stories260K, shared cells)", () => {
  let model: SwarmModel;
  let first: SwarmContext;
  let second: SwarmContext | undefined;

  before(async () => {
    model = await loadStoriesModel();
  });

  beforeEach(async () => {
    first = await createSwarmContext(model, { maxAgents: 2, kvCells: 2048, threads: 1, swarms: 2 });
    await first.appendToTrunk(storyTrunk);
  });

  afterEach(async () => {
    await second?.dispose();
    await first.dispose();
    second = undefined;
  });

  it("forks the second trunk's shared start, and both swarms' agents step in one dispatch", async () => {
    const firstTrunk = first.trunkTokens;
    second = new SwarmContext(first.host, { maxAgents: 2, kvCells: 2048, threads: 1, cellCap: 512 });
    const before = first.stats();
    const reuse = await second.shareTrunk(secondTrunk);
    const afterTrunk = first.stats();
    const wanted = second.trunkTokens;
    // The first trunk's decoded tokens all start the second (the last of it is the first's pending token).
    assert.ok(reuse.reusedTokens >= firstTrunk.length - 2, `reused ${reuse.reusedTokens} of ${firstTrunk.length}`);
    assert.equal(reuse.decodedTokens, wanted.length - 1 - reuse.reusedTokens);
    assert.equal(afterTrunk.dispatchedTokens - before.dispatchedTokens, reuse.decodedTokens, "only the rest decoded");
    assert.ok(reuse.decodedTokens < wanted.length / 2, `decoded ${reuse.decodedTokens} of ${wanted.length}`);
    assertLedgerMatchesLlama(first);
    assertLedgerMatchesLlama(second);
    // The second swarm is charged for what it wrote, not for the start it shares.
    assert.deepEqual(second.stats().share, { swarms: 2, capCells: 512, usedCells: reuse.decodedTokens });
    assert.equal(second.stats().trunkCells, wanted.length - 1);

    const [a, b] = [await first.fork("agent-1", { expectedTail: 16 }), await second.fork("agent-1")];
    const stepBefore = first.stats();
    const [fromFirst, fromSecond] = await Promise.all([a.generate(greedy), b.generate(greedy)]);
    const stepAfter = first.stats();
    assert.equal(stepAfter.dispatches - stepBefore.dispatches, 10, "one llama_decode per step for both swarms");
    assert.equal(stepAfter.dispatchedTokens - stepBefore.dispatchedTokens, 20, "a row of each swarm per dispatch");
    assert.deepEqual(
      second.stats().agents.map((agent) => agent.agentId),
      ["agent-1"],
    );
    assertLedgerMatchesLlama(second);

    assert.deepEqual(fromFirst.tokens, await aloneGreedy(model, storyTrunk), "the first swarm's text as alone");
    assert.deepEqual(fromSecond.tokens, await aloneGreedy(model, secondTrunk), "the second swarm's text as alone");
  });

  it("holds the second swarm to its cap, refuses a swarm with no sequences left, and outlives the first", async () => {
    second = new SwarmContext(first.host, { maxAgents: 2, kvCells: 2048, threads: 1, cellCap: 64 });
    const reuse = await second.shareTrunk(secondTrunk);
    const room = 64 - reuse.decodedTokens;
    await assert.rejects(second.fork("agent-1", { expectedTail: room + 1 }), /No room for a new agent/);
    const agent = await second.fork("agent-1", { expectedTail: room });
    assert.equal(agent.room(), room, "its promise is its room");
    assert.throws(
      () => new SwarmContext(first.host, { maxAgents: 2, kvCells: 2048, threads: 1 }),
      (error: unknown) => error instanceof SwarmRuntimeError && error.code === "no-sequence-left",
    );

    await first.dispose();
    const result = await agent.generate({ maxTokens: 6, sampling: { temperature: 0 } });
    assert.equal(result.tokens.length, 6, "the second swarm generates after the first left");
    assert.deepEqual(second.stats().share?.swarms, 1);
    assertLedgerMatchesLlama(second);
    await second.dispose();
    assert.equal(first.host.isDisposed, true, "the context went with its last swarm");
  });
});
