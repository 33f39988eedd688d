// Copy mode, asked for explicitly: the runtime names it, and each fork really holds its own copy of the trunk.
import assert from "node:assert/strict";
import type { SwarmModel } from "../../src/runtime/loadModel";
import { createSwarmContext, type SwarmContext } from "../../src/runtime/local/swarmContext";
import { loadStoriesModel, storyTrunk } from "./runtimeTestModels";

describe("copy mode (stories260K, split KV cache)", () => {
  let model: SwarmModel;
  let swarm: SwarmContext;

  before(async () => {
    model = await loadStoriesModel();
    swarm = await createSwarmContext(model, { maxAgents: 2, kvCells: 1024, threads: 1, unified: false });
  });

  after(async () => {
    await swarm.dispose();
  });

  it("never claims shared cells on a split cache, and counts every fork's copy", async () => {
    assert.equal(swarm.mode, "copy-mode");
    const stats0 = swarm.stats();
    assert.equal(stats0.mode, "copy-mode");
    // 4 sequences x 256 cells each: every sequence has its own stream.
    assert.equal(stats0.poolCells, 1024);
    assert.equal(stats0.sequenceCellLimit, 256);

    await swarm.appendToTrunk(storyTrunk);
    const trunk = swarm.stats().trunkCells;
    const agents = [await swarm.fork("a1"), await swarm.fork("a2")];
    const stats = swarm.stats();
    assert.equal(stats.usedCells, 3 * trunk, "each fork copies the trunk");
    assert.equal(stats.trunkOwners, 0);
    assert.deepEqual(
      stats.agents.map((agent) => agent.privateCells),
      [trunk, trunk],
    );

    const results = await Promise.all(agents.map((agent) => agent.generate({ maxTokens: 6 })));
    assert.deepEqual(
      results.map((result) => result.tokens.length),
      [6, 6],
    );
    for (const check of swarm.checkPositions()) assert.equal(check.llamaMaxPosition + 1, check.ledgerCells, check.id);
  });
});
