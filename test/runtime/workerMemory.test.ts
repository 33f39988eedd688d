// The worker's memory beyond weights and KV, read by the real runtime (stories260K): the budget carries the process's
// resident set, the model file as weights and the pool as KV (all on the CPU here), the fixed rest read before the
// first fork, and a per-agent rest measured while 8 agents generate; a context kept for the next swarm keeps it.
import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { agentsByMemory } from "../../src/core/workerMemory";
import type { SwarmModel } from "../../src/runtime/loadModel";
import { createSwarmContext } from "../../src/runtime/local/swarmContext";
import { loadStoriesModel, storyTrunk } from "./runtimeTestModels";

describe("worker memory in the budget (stories260K, real runtime)", () => {
  let model: SwarmModel;

  before(async () => {
    model = await loadStoriesModel();
  });

  it("splits the resident set into weights, KV and the rest, fixed and per agent", async () => {
    const swarm = await createSwarmContext(model, { maxAgents: 8, kvCells: 2048, threads: 1 });
    try {
      await swarm.appendToTrunk(storyTrunk);
      const start = swarm.stats().memory;
      assert.ok(start, "the local runtime reports its memory");
      assert.equal(start.weightsBytes, statSync(model.facts.path).size, "the model file, all in RAM on the CPU");
      assert.equal(start.kvBytes, swarm.stats().poolBytes, "the pool, in RAM");
      const rss = process.memoryUsage.rss();
      assert.ok(Math.abs(start.residentBytes - rss) < 64 * 2 ** 20, `${start.residentBytes} vs ${rss}`);
      assert.equal(start.restBytes, start.residentBytes - start.weightsBytes - start.kvBytes);
      assert.equal(start.fixedRestBytes, start.restBytes, "no agent live: the rest is the fixed part");
      assert.equal(start.perAgentRestBytes, undefined);
      assert.ok(start.availableBytes > 0);

      const agents = await Promise.all(
        Array.from({ length: 8 }, (_, i) => swarm.fork(`agent-${i + 1}`, { expectedTail: 32 })),
      );
      await Promise.all(agents.map((a) => a.generate({ maxTokens: 16 })));
      const running = swarm.stats().memory;
      assert.ok(running?.perAgentRestBytes !== undefined, JSON.stringify(running));
      assert.equal(running.measuredAgents, 8);
      // A collection between readings can leave no growth to measure: then nothing bounds the agents by memory.
      const room = agentsByMemory(running.availableBytes, running.perAgentRestBytes);
      assert.equal(running.moreAgentsByMemory, Number.isFinite(room) ? room : undefined);
      console.log(
        `      rest ${(running.restBytes / 2 ** 20).toFixed(1)} MiB: fixed ${(running.fixedRestBytes / 2 ** 20).toFixed(1)} MiB, ` +
          `${(running.perAgentRestBytes / 2 ** 20).toFixed(2)} MiB per agent with 8 live`,
      );
      for (const a of agents) await a.release();
      const after = swarm.stats().memory;
      assert.equal(after?.perAgentRestBytes, running.perAgentRestBytes, "kept for the next swarm of this context");
    } finally {
      await swarm.dispose();
    }
  });
});
