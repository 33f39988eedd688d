// A full pool is an event, not a crash: a fork that cannot fit is refused, and an agent whose next token has no
// cell is paused with a kv-full event while the others finish. The ledger's idea of "full" is llama.cpp's.
import assert from "node:assert/strict";
import type { KvFullEvent } from "../../src/protocol/runtime";
import type { SwarmModel } from "../../src/runtime/loadModel";
import { KvAdmissionError } from "../../src/runtime/runtimeErrors";
import { createSwarmContext, type SwarmContext } from "../../src/runtime/local/swarmContext";
import { loadStoriesModel, storyTrunk } from "./runtimeTestModels";

describe("a full KV pool (stories260K, 256 cells)", () => {
  let model: SwarmModel;
  let swarm: SwarmContext;

  before(async () => {
    model = await loadStoriesModel();
  });

  beforeEach(async () => {
    swarm = await createSwarmContext(model, { maxAgents: 4, kvCells: 256, threads: 1 });
    await swarm.appendToTrunk(storyTrunk);
  });

  afterEach(async () => {
    await swarm.dispose();
  });

  it("refuses a fork whose expected tail does not fit, with a typed kv-full error", async () => {
    let available = -1;
    await assert.rejects(swarm.fork("a1", { expectedTail: 10_000 }), (error: unknown) => {
      assert.ok(error instanceof KvAdmissionError);
      assert.equal(error.code, "kv-full");
      assert.equal(error.neededCells, 10_000);
      assert.match(error.message, /kvCellsBudget/);
      available = error.availableCells;
      return true;
    });
    assert.ok(available > 0 && available <= swarm.stats().freeCells);
    await swarm.fork("a2", { expectedTail: available });
    const stats = swarm.stats();
    assert.equal(stats.reservedCells, available, "the new agent's tail is promised to it");
    const room = stats.freeCells - stats.reservedCells;
    await assert.rejects(
      swarm.fork("a3", { expectedTail: room + 1 }),
      KvAdmissionError,
      "promised cells are not given twice",
    );
  });

  it("pauses the agent that runs out of cells while the others finish, then fills the pool exactly", async () => {
    const events: KvFullEvent[] = [];
    swarm.onKvFull((event) => events.push(event));
    const steady = [await swarm.fork("a4", { expectedTail: 20 }), await swarm.fork("a5", { expectedTail: 20 })];
    const greedy = await swarm.fork("a6", { expectedTail: 1 });

    const [a, b, g] = await Promise.all([
      ...steady.map((agent) => agent.generate({ maxTokens: 20, sampling: { temperature: 0.8, seed: 7 } })),
      greedy.generate({ maxTokens: 250, sampling: { temperature: 0.8, seed: 8 } }),
    ]);

    assert.equal(a.stopReason, "max-tokens");
    assert.equal(b.stopReason, "max-tokens");
    assert.equal(g.stopReason, "kv-full");
    assert.equal(greedy.paused, true);
    assert.deepEqual(
      events.map((event) => event.agentId),
      [greedy.id],
    );
    assert.equal(events[0].neededCells, 1);
    assert.equal(events[0].availableCells, 0);

    // The others are done, so their promises are kept: the paused agent may now take every free cell.
    const resumed = await greedy.generate({ maxTokens: 250, sampling: { temperature: 0.8, seed: 9 } });
    assert.equal(resumed.stopReason, "kv-full");
    const stats = swarm.stats();
    assert.equal(stats.usedCells, stats.poolCells, "every cell of the pool holds a token");
    assert.equal(stats.freeCells, 0);
    for (const check of swarm.checkPositions()) assert.equal(check.llamaMaxPosition + 1, check.ledgerCells, check.id);

    // Past admission control, llama.cpp itself has no slot left: the ledger's "full" is llama.cpp's "full".
    await assert.rejects(
      greedy.slot.sequence.evaluateWithoutGeneratingNewTokens(greedy.slot.pending),
      /could not find a KV slot/,
    );
    for (const check of swarm.checkPositions()) assert.equal(check.llamaMaxPosition + 1, check.ledgerCells, check.id);
  });

  it("lets a paused agent go on after another agent is released", async () => {
    const other = await swarm.fork("a7", { expectedTail: 10 });
    await other.generate({ maxTokens: 10 });
    const agent = await swarm.fork("a8", { expectedTail: 1 });
    const first = await agent.generate({ maxTokens: 250 });
    assert.equal(first.stopReason, "kv-full");
    const before = swarm.stats();
    assert.equal(before.freeCells, 0);
    const freed = before.agents.find((entry) => entry.agentId === other.id)?.privateCells ?? 0;
    const agentCells = before.agents.find((entry) => entry.agentId === agent.id)?.sequenceCells ?? 0;
    await other.release();
    assert.equal(swarm.stats().freeCells, freed);
    const second = await agent.generate({ maxTokens: 250 });
    assert.equal(second.stopReason, "kv-full");
    // It gets the freed cells, up to its sequence limit (node-llama-cpp keeps each sequence's last position free).
    const expected = Math.min(freed, before.sequenceCellLimit - 1 - agentCells);
    assert.ok(expected > 0);
    assert.equal(second.tokens.length, expected);
    assert.equal(agent.paused, true);
  });
});
