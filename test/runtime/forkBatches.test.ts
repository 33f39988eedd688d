// A joining swarm's seats are forked together (src/runtime/local/forkBatches.ts), on the real runtime (stories260K,
// shared cells): while the first swarm's agent generates, the second swarm asks for 8 forks at once; they are made
// in one gap between the pool's steps, not one per step (each fork's copy waits for the context between two
// decodes, so forked one after another they took a step each: 8 seats, 8 of the running swarm's steps). The forks
// share the trunk's cells, the ledger matches llama.cpp's positions, and a batch with a fork that cannot be seated
// makes the others.
import assert from "node:assert/strict";
import type { SwarmModel } from "../../src/runtime/loadModel";
import { createSwarmContext, SwarmContext } from "../../src/runtime/local/swarmContext";
import { loadStoriesModel, storyTrunk } from "./runtimeTestModels";

const secondTrunk = storyTrunk + " Lily ran to the ball and picked it up. It was shiny and new.";

describe("forks asked for together are made together (stories260K, shared cells)", () => {
  let model: SwarmModel;
  let first: SwarmContext;
  let second: SwarmContext | undefined;

  before(async () => {
    model = await loadStoriesModel();
  });

  beforeEach(async () => {
    first = await createSwarmContext(model, { maxAgents: 8, kvCells: 8192, threads: 1, swarms: 2 });
    await first.appendToTrunk(storyTrunk);
  });

  afterEach(async () => {
    await second?.dispose();
    await first.dispose();
    second = undefined;
  });

  it("forks a joining swarm's 8 seats within two of the running swarm's steps", async () => {
    second = new SwarmContext(first.host, { maxAgents: 8, kvCells: 8192, threads: 1 });
    await second.shareTrunk(secondTrunk);
    const runner = await first.fork("agent-1", { expectedTail: 2048 });
    // The first swarm's agent generates throughout (greedy; a new turn when the model ends one).
    let generating = true;
    const generation = (async () => {
      while (generating) await runner.generate({ maxTokens: 16, sampling: { temperature: 0 } });
    })();
    try {
      const steps = () => first.stats().dispatches;
      const started = steps();
      while (steps() < started + 3) await new Promise((resolve) => setImmediate(resolve));
      const before = steps();
      const agents = await Promise.all(
        Array.from({ length: 8 }, (_, i) => second!.fork(`agent-${i + 1}`, { expectedTail: 16 })),
      );
      const during = steps() - before;
      assert.equal(agents.length, 8);
      assert.ok(during <= 2, `8 forks took ${during} of the running swarm's steps (one gap expected)`);
    } finally {
      generating = false;
      await generation;
    }
    const stats = second.stats();
    assert.equal(stats.agents.length, 8);
    for (const agent of stats.agents) assert.equal(agent.privateCells, 0, `${agent.agentId} shares the trunk's cells`);
    for (const check of second.checkPositions())
      assert.equal(check.llamaMaxPosition + 1, check.ledgerCells, `${check.id}: ledger and llama.cpp disagree`);
  });

  it("makes the forks of a batch that can be seated, and refuses the one that cannot, by name", async () => {
    const forks = ["agent-1", "agent-2", "agent-1", "agent-3"].map((id) =>
      first.fork(id, { expectedTail: 16 }).then(
        (agent) => agent.id,
        (error: Error) => `refused: ${error.message}`,
      ),
    );
    const made = await Promise.all(forks);
    assert.deepEqual(made.slice(0, 2), ["agent-1", "agent-2"]);
    assert.match(made[2]!, /^refused: An agent named agent-1 is already live/);
    assert.equal(made[3], "agent-3");
    assert.deepEqual(
      first.stats().agents.map((a) => a.agentId),
      ["agent-1", "agent-2", "agent-3"],
    );
  });
});
