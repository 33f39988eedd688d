// Thinking keeps the swarm's one dispatch per step: agents writing free text at once (each stopping at its own
// point, the stop's tokens taken back) decode together, and taking the stop's tokens back dispatches nothing.
import assert from "node:assert/strict";
import { AgentChatFormat } from "../../../src/runtime/agentChatFormat";
import type { SwarmModel } from "../../../src/runtime/loadModel";
import { createSwarmContext } from "../../../src/runtime/local/swarmContext";
import { ensureFamilyModels, familyModelFile, modelFamilies } from "../../fixtures/gguf/familyModels";
import { testRuntime } from "../runtimeTestModels";

const tools = [
  {
    name: "read_file",
    description: "Read a file.",
    jsonSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
];

describe("thinking in lockstep (Qwen3 test model)", function () {
  this.timeout(600_000);
  let model: SwarmModel;

  before(async () => {
    const dir = await ensureFamilyModels();
    const qwen3 = modelFamilies.find((f) => f.id === "qwen3")!;
    model = await testRuntime.loadModel({ modelPath: familyModelFile(dir, qwen3), threads: 1 });
  });

  after(async () => {
    await model.dispose();
  });

  it("4 agents thinking at once take one dispatch per step", async () => {
    const format = await AgentChatFormat.create(model, "You are an agent. Think, then call.", tools);
    const swarm = await createSwarmContext(model, { maxAgents: 4, kvCells: 4096, threads: 1 });
    try {
      await swarm.appendToTrunk(format.trunkTokens);
      const agents = [];
      for (let i = 1; i <= 4; i++) {
        const agent = await swarm.fork(`agent-${i}`);
        await agent.append(format.openingTokens(`Task ${i}.`, true));
        agents.push(agent);
      }
      const thoughts = agents.map((_, i) => format.tokenize(`${"I should look. ".repeat(i + 1)}</think> more`));
      const longest = Math.max(...thoughts.map((t) => t.length));
      const before = swarm.stats();
      const results = await Promise.all(
        agents.map((agent, i) =>
          agent.generate({
            maxTokens: longest + 4,
            forcedTokens: thoughts[i]!,
            stop: format.thinkingStops,
            dropStopText: true,
          }),
        ),
      );
      const after = swarm.stats();
      assert.deepEqual(
        results.map((r) => [r.stopReason, r.text]),
        agents.map((_, i) => ["stop", "I should look. ".repeat(i + 1).trimEnd()]),
      );
      // One step decodes each agent's pending token, then one per token; the longest agent sets the count.
      assert.ok(
        after.dispatches - before.dispatches <= longest,
        `${after.dispatches - before.dispatches} dispatches for ${longest} steps at most`,
      );
      for (const check of swarm.checkPositions()) {
        assert.equal(check.llamaMaxPosition + 1, check.ledgerCells, `${check.id}: ledger equals llama.cpp`);
      }
    } finally {
      await swarm.dispose();
    }
  });
});
