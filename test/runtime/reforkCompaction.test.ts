// Compaction by re-fork on the real runtime (stories260K, shared cells): an agent gives back its whole tail and is
// forked again from the trunk under the same id and handle, for no decode and no new cell, and the ledger still
// equals llama.cpp's positions; the re-forked agent then generates in the same dispatches as the others.
import assert from "node:assert/strict";
import type { SwarmModel } from "../../src/runtime/loadModel";
import { createSwarmContext, type SwarmContext } from "../../src/runtime/local/swarmContext";
import { loadStoriesModel, storyTrunk } from "./runtimeTestModels";

function assertLedgerMatchesLlama(swarm: SwarmContext): void {
  for (const check of swarm.checkPositions()) {
    assert.equal(check.llamaMinPosition, 0, `${check.id} starts at position 0`);
    assert.equal(check.llamaMaxPosition + 1, check.ledgerCells, `${check.id}: ledger and llama.cpp disagree`);
  }
}

describe("compaction by re-fork (stories260K, shared cells)", () => {
  let model: SwarmModel;
  let swarm: SwarmContext;

  before(async () => {
    model = await loadStoriesModel();
  });

  after(async () => {
    await model.dispose();
  });

  beforeEach(async () => {
    swarm = await createSwarmContext(model, { maxAgents: 2, kvCells: 1024, threads: 1 });
    await swarm.appendToTrunk(storyTrunk);
  });

  afterEach(async () => {
    await swarm.dispose();
  });

  it("releases the agent's tail and forks it again from the trunk: same id and handle, no decode, no cell", async () => {
    const agent = await swarm.fork("agent-1");
    await agent.append(" Lily ran to the ball and kicked it high into the blue sky.");
    await agent.generate({ maxTokens: 10 });
    const before = swarm.stats();
    const tail = before.agents.find((a) => a.agentId === "agent-1")!.privateCells;
    assert.ok(tail > 10, `the agent holds a tail (${tail} cells)`);

    const result = await swarm.refork(agent);
    const after = swarm.stats();
    assert.equal(result.releasedCells, tail);
    assert.equal(after.usedCells, before.usedCells - tail, "exactly the tail is free again");
    assert.equal(after.dispatches, before.dispatches, "the re-fork decodes nothing");
    assert.deepEqual(
      after.agents.map((a) => [a.agentId, a.privateCells]),
      [["agent-1", 0]],
    );
    assert.equal(agent.parentId, "trunk");
    assert.deepEqual(agent.tokens, swarm.trunkTokens, "the agent starts again from the trunk");
    assert.deepEqual(result.positions, {
      id: "agent-1",
      ledgerCells: before.trunkCells,
      llamaMinPosition: 0,
      llamaMaxPosition: before.trunkCells - 1,
    });
    assertLedgerMatchesLlama(swarm);
  });

  it("keeps ledger and llama.cpp equal over many compactions, and generates in one dispatch per step after", async () => {
    const [agent, other] = [await swarm.fork("agent-1"), await swarm.fork("agent-2")];
    for (let round = 0; round < 12; round++) {
      await agent.append(` Round ${round}: the girl found a red ball.`);
      await agent.generate({ maxTokens: 6 });
      await swarm.refork(agent);
      assertLedgerMatchesLlama(swarm);
    }
    await agent.append(" Then");
    await other.append(" Then");
    const before = swarm.stats().dispatches;
    await Promise.all([agent.generate({ maxTokens: 8 }), other.generate({ maxTokens: 8 })]);
    assert.equal(swarm.stats().dispatches - before, 8, "one llama_decode per step for both agents");
    assertLedgerMatchesLlama(swarm);
  });

  it("refuses to re-fork an agent that is busy or released", async () => {
    const agent = await swarm.fork("agent-1");
    const generating = agent.generate({ prompt: " Then", maxTokens: 4 });
    await assert.rejects(swarm.refork(agent), /agent-1 is busy/);
    await generating;
    await agent.release();
    await assert.rejects(swarm.refork(agent), /not a live agent/);
  });
});
