// The shared-cells runtime on a real model: the patched build is detected, a fork costs no cells and no decode,
// the ledger agrees with llama.cpp's own positions, and releasing an agent frees exactly its private cells.
import assert from "node:assert/strict";
import type { SwarmModel } from "../../src/runtime/loadModel";
import { createSwarmContext, type SwarmContext } from "../../src/runtime/local/swarmContext";
import { loadStoriesModel, storyTrunk } from "./runtimeTestModels";

function assertLedgerMatchesLlama(swarm: SwarmContext): void {
  for (const check of swarm.checkPositions()) {
    if (check.ledgerCells === 0) {
      assert.deepEqual([check.llamaMinPosition, check.llamaMaxPosition], [-1, -1], `${check.id} should hold nothing`);
    } else {
      assert.equal(check.llamaMinPosition, 0, `${check.id} starts at position 0`);
      assert.equal(check.llamaMaxPosition + 1, check.ledgerCells, `${check.id}: ledger and llama.cpp disagree`);
    }
  }
}

describe("shared cells (stories260K, patched build)", () => {
  let model: SwarmModel;
  let swarm: SwarmContext;

  before(async () => {
    model = await loadStoriesModel();
  });

  beforeEach(async () => {
    swarm = await createSwarmContext(model, { maxAgents: 4, kvCells: 1024, threads: 1 });
  });

  afterEach(async () => {
    await swarm.dispose();
  });

  it("runs on the patched local build and reports shared cells", async () => {
    assert.equal(model.build, "patched-local-build");
    assert.equal(model.notice, undefined);
    assert.equal(swarm.mode, "shared-cells");
    assert.equal(swarm.stats().mode, "shared-cells");
    assert.equal(swarm.poolCells, 1024);
  });

  it("computes bytes per cell from the model's shapes (5 layers x 4 KV heads x (8 + 8) x 2 bytes)", () => {
    assert.deepEqual(
      [model.facts.layers, model.facts.kvHeads, model.facts.keyHeadDim, model.facts.valueHeadDim, model.facts.kvType],
      [5, 4, 8, 8, "F16"],
    );
    assert.equal(model.facts.kvBytesPerCell, 5 * 4 * (8 + 8) * 2);
    assert.equal(swarm.stats().poolBytes, 1024 * 640);
  });

  it("starts the trunk with one BOS, whether or not the given tokens carry it", async () => {
    const bos = model.model.tokens.bos;
    assert.notEqual(bos, null);
    await swarm.appendToTrunk([bos!, ...model.tokenize("Once")]);
    await swarm.appendToTrunk(" upon a time");
    assert.deepEqual(swarm.trunkTokens, [bos, ...model.tokenize("Once"), ...model.tokenize(" upon a time")]);
    const other = await createSwarmContext(model, { maxAgents: 1, kvCells: 256, threads: 1 });
    try {
      await other.appendToTrunk("Once");
      assert.deepEqual(other.trunkTokens, [bos, ...model.tokenize("Once")]);
    } finally {
      await other.dispose();
    }
  });

  it("decodes the trunk once; a fork adds no cells and no dispatch", async () => {
    await swarm.appendToTrunk(storyTrunk);
    const before = swarm.stats();
    // The last trunk token stays pending, so the trunk holds all its tokens but one.
    assert.equal(before.trunkCells, swarm.trunkTokens.length - 1);
    assert.equal(before.usedCells, before.trunkCells);

    const agents = [await swarm.fork("a1"), await swarm.fork("a2"), await swarm.fork("a3")];
    const after = swarm.stats();
    assert.equal(after.usedCells, before.usedCells, "forks must not take cells");
    assert.equal(after.dispatches, before.dispatches, "forks must not decode");
    assert.equal(after.trunkOwners, 3);
    for (const agent of after.agents) {
      assert.equal(agent.privateCells, 0);
      assert.equal(agent.sequenceCells, before.trunkCells);
    }
    assert.deepEqual(agents[0].tokens, swarm.trunkTokens);
    assertLedgerMatchesLlama(swarm);
  });

  it("keeps the ledger equal to llama.cpp's positions through appends, generation and forks of forks", async () => {
    await swarm.appendToTrunk(storyTrunk);
    const [a, b] = [await swarm.fork("a4"), await swarm.fork("a5")];
    await Promise.all([a.append(" Lily ran to the ball."), b.generate({ maxTokens: 12 })]);
    const aCells = swarm.stats().agents.find((agent) => agent.agentId === a.id)?.sequenceCells ?? -1;
    const child = await swarm.fork("a6", { from: a });
    await child.generate({ maxTokens: 7 });
    assertLedgerMatchesLlama(swarm);
    const stats = swarm.stats();
    const childStats = stats.agents.find((agent) => agent.agentId === child.id);
    // The child shares a's cells up to the fork (a now has none of its own); only its 7 decodes are private.
    assert.equal(childStats?.sequenceCells, aCells + 7);
    assert.equal(childStats?.privateCells, 7);
    assert.equal(stats.agents.find((agent) => agent.agentId === a.id)?.privateCells, 0);
    // In use: a's cells (trunk + a's tail, shared with the child), b's tail and the child's own tokens.
    const bPrivate = stats.agents.find((agent) => agent.agentId === b.id)?.privateCells ?? -1;
    assert.equal(bPrivate, 12);
    assert.equal(stats.usedCells, aCells + bPrivate + 7);
  });

  it("frees exactly an agent's private cells on release, and keeps cells another owner still reads", async () => {
    await swarm.appendToTrunk(storyTrunk);
    const parent = await swarm.fork("a7");
    await parent.append(" She kicked the ball very high into the sky.");
    const child = await swarm.fork("a8", { from: parent });
    await child.generate({ maxTokens: 5 });
    const before = swarm.stats();
    const parentPrivate = before.agents.find((agent) => agent.agentId === parent.id)?.privateCells;
    assert.equal(parentPrivate, 0, "everything the parent holds is shared with the child or the trunk");

    await parent.release();
    const afterParent = swarm.stats();
    assert.equal(afterParent.usedCells, before.usedCells, "the child still reads the parent's cells");
    assertLedgerMatchesLlama(swarm);

    const childPrivate = afterParent.agents.find((agent) => agent.agentId === child.id)?.privateCells ?? 0;
    assert.ok(childPrivate > 5, "with its parent gone the child owns the parent's tail as well");
    await child.release();
    const afterChild = swarm.stats();
    assert.equal(afterChild.usedCells, afterParent.usedCells - childPrivate);
    assert.equal(afterChild.usedCells, afterChild.trunkCells);
    assert.equal(afterChild.trunkOwners, 0);
  });
});
