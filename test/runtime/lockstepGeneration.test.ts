// All live agents generating at once share one llama_decode per step, counted by the patched node-llama-cpp.
import assert from "node:assert/strict";
import type { SwarmModel } from "../../src/runtime/loadModel";
import { createSwarmContext, type SwarmContext } from "../../src/runtime/local/swarmContext";
import { loadStoriesModel, storyTrunk } from "./runtimeTestModels";

describe("lockstep generation (stories260K)", () => {
  let model: SwarmModel;
  let swarm: SwarmContext;

  before(async () => {
    model = await loadStoriesModel();
  });

  afterEach(async () => {
    await swarm.dispose();
  });

  for (const agentCount of [1, 4, 8, 16]) {
    it(`${agentCount} agent(s) generating 10 tokens together take one dispatch per step`, async () => {
      swarm = await createSwarmContext(model, { maxAgents: agentCount, kvCells: 1024, threads: 1 });
      await swarm.appendToTrunk(storyTrunk);
      const agents = [];
      for (let i = 0; i < agentCount; i++) agents.push(await swarm.fork(`agent-${i + 1}`, { expectedTail: 16 }));
      const before = swarm.stats();

      const results = await Promise.all(
        agents.map((agent, i) => agent.generate({ maxTokens: 10, sampling: { temperature: 0.9, seed: 100 + i } })),
      );

      const after = swarm.stats();
      assert.deepEqual(
        results.map((result) => result.stopReason),
        agents.map(() => "max-tokens"),
      );
      // Step 1 decodes each agent's pending trunk token; steps 2-10 decode tokens 1-9; token 10 stays pending.
      assert.equal(after.dispatches - before.dispatches, 10, "one llama_decode per step");
      assert.equal(after.dispatchedTokens - before.dispatchedTokens, 10 * agentCount, "one row per agent per step");
      assert.equal(after.generationSteps, 10);
      assert.equal(after.generatedTokens, 10 * agentCount);
    });
  }

  it("an agent that joins later decodes in the same dispatches as the ones already generating", async () => {
    swarm = await createSwarmContext(model, { maxAgents: 3, kvCells: 1024, threads: 1 });
    await swarm.appendToTrunk(storyTrunk);
    const [early, late] = [await swarm.fork("a2"), await swarm.fork("a3")];
    const before = swarm.stats().dispatches;
    const first = early.generate({ maxTokens: 12 });
    await new Promise((resolve) => setImmediate(resolve));
    const second = late.generate({ maxTokens: 6, prompt: " The ball" });
    await Promise.all([first, second]);
    // The late agent's steps ride along with the early agent's: never more dispatches than the longer run.
    assert.ok(swarm.stats().dispatches - before <= 12, `took ${swarm.stats().dispatches - before} dispatches`);
  });
});
