// Deterministic runs: forced tokens go through the real decode path, so what the sampler chooses after each
// forced token is the same every time, in every agent and in every context.
import assert from "node:assert/strict";
import type { SwarmModel } from "../../src/runtime/loadModel";
import { createSwarmContext } from "../../src/runtime/local/swarmContext";
import type { GenerateResult } from "../../src/protocol/runtime";
import { loadStoriesModel, storyTrunk } from "./runtimeTestModels";

async function runForced(model: SwarmModel, forced: ReturnType<SwarmModel["tokenize"]>): Promise<GenerateResult[]> {
  const swarm = await createSwarmContext(model, { maxAgents: 2, kvCells: 1024, threads: 1 });
  try {
    await swarm.appendToTrunk(storyTrunk);
    const agents = [await swarm.fork("a1"), await swarm.fork("a2")];
    return await Promise.all(agents.map((agent) => agent.generate({ maxTokens: forced.length, forcedTokens: forced })));
  } finally {
    await swarm.dispose();
  }
}

describe("forced tokens (stories260K)", () => {
  let model: SwarmModel;

  before(async () => {
    model = await loadStoriesModel();
  });

  it("feeds the forced tokens and samples the same tokens after them in every agent and every run", async () => {
    const forced = model.tokenize(" The dog barked at the moon and");
    const first = await runForced(model, forced);
    const second = await runForced(model, forced);
    for (const result of [...first, ...second]) {
      assert.deepEqual(result.tokens, forced, "the agent's tokens are the forced ones");
      assert.equal(result.text, model.detokenize(forced));
    }
    assert.deepEqual(first[1].sampledTokens, first[0].sampledTokens, "two agents, same forced input");
    assert.deepEqual(second[0].sampledTokens, first[0].sampledTokens, "two contexts, same forced input");
    // The forced tokens really changed the course: greedy sampling alone would not have produced them.
    assert.notDeepEqual(first[0].sampledTokens, forced);
  });

  it("continues with sampling once the forced tokens run out", async () => {
    const swarm = await createSwarmContext(model, { maxAgents: 1, kvCells: 512, threads: 1 });
    try {
      await swarm.appendToTrunk(storyTrunk);
      const agent = await swarm.fork("a3");
      const forced = model.tokenize(" Tom");
      const result = await agent.generate({ maxTokens: forced.length + 5, forcedTokens: forced });
      assert.deepEqual(result.tokens.slice(0, forced.length), forced);
      assert.deepEqual(result.tokens.slice(forced.length), result.sampledTokens.slice(forced.length));
    } finally {
      await swarm.dispose();
    }
  });
});
