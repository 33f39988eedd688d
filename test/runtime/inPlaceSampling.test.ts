// The patched addon samples greedy and top-k chains on the logits in place (patches/node-llama-cpp+3.22.1.patch,
// AddonSampler::setTokenCandidatesInPlace) instead of building a 12-byte candidate per vocabulary entry. It must
// pick exactly what the stock path picks. The stock path is still in the same addon: SWARMBOARD_STOCK_SAMPLING,
// read each time node-llama-cpp makes a sampler (once per generate call), switches a call back to it, so both
// paths run here side by side on the same context and the same trunk.
import assert from "node:assert/strict";
import { z } from "zod";
import type { SwarmModel } from "../../src/runtime/loadModel";
import { createSwarmContext } from "../../src/runtime/local/swarmContext";
import type { GenerateRequest } from "../../src/runtime/port/engineShapes";
import { ensureFamilyModels, familyModelFile, modelFamilies } from "../fixtures/gguf/familyModels";
import { loadStoriesModel, storyTrunk, testRuntime } from "./runtimeTestModels";

type Path = "in-place" | "stock";

/** One agent per path, forked from the same trunk, each running `request`; returns both results. */
async function bothPaths(model: SwarmModel, trunk: string, request: GenerateRequest) {
  const swarm = await createSwarmContext(model, { maxAgents: 2, kvCells: 2048, threads: 1 });
  try {
    assert.equal(swarm.mode, "shared-cells", "the patched build is loaded (the in-place path ships with it)");
    await swarm.appendToTrunk(trunk);
    const results = {} as Record<Path, Awaited<ReturnType<Awaited<ReturnType<typeof swarm.fork>>["generate"]>>>;
    for (const path of ["stock", "in-place"] as const) {
      const agent = await swarm.fork(`agent-${path}`);
      if (path === "stock") process.env.SWARMBOARD_STOCK_SAMPLING = "1";
      try {
        results[path] = await agent.generate(request);
      } finally {
        delete process.env.SWARMBOARD_STOCK_SAMPLING;
      }
    }
    return results;
  } finally {
    await swarm.dispose();
  }
}

const greedy: GenerateRequest = { maxTokens: 48 };
const topK: GenerateRequest = { maxTokens: 48, sampling: { temperature: 0.9, topK: 40, topP: 0.95, seed: 11 } };

describe("sampling on the logits in place", () => {
  describe("stories260K (trained, 512-entry vocabulary)", () => {
    let model: SwarmModel;
    before(async () => {
      model = await loadStoriesModel();
    });

    it("picks the same greedy tokens as the stock candidate array", async () => {
      const { stock, "in-place": inPlace } = await bothPaths(model, storyTrunk, greedy);
      assert.ok(stock.sampledTokens.length >= 8, `too short to compare: ${stock.sampledTokens.length} tokens`);
      assert.deepEqual(inPlace.sampledTokens, stock.sampledTokens);
    });

    it("draws the same top-k / top-p / temperature tokens for the same seed", async () => {
      const { stock, "in-place": inPlace } = await bothPaths(model, storyTrunk, topK);
      assert.deepEqual(inPlace.sampledTokens, stock.sampledTokens);
    });
  });

  describe("Qwen2.5 family model (151,936-entry vocabulary)", () => {
    let model: SwarmModel;
    before(async function () {
      this.timeout(600_000);
      const family = modelFamilies.find((f) => f.id === "qwen2.5")!;
      const dir = await ensureFamilyModels([family]);
      model = await testRuntime.loadModel({ modelPath: familyModelFile(dir, family), threads: 1 });
    });
    after(async () => {
      await model.dispose();
    });

    const trunk = "Plan the work: read the notes, list the open questions, and answer each one in turn.";

    it("picks the same greedy tokens as the stock candidate array", async () => {
      const { stock, "in-place": inPlace } = await bothPaths(model, trunk, greedy);
      assert.equal(stock.sampledTokens.length, greedy.maxTokens, "random weights run to the token limit");
      assert.deepEqual(inPlace.sampledTokens, stock.sampledTokens);
    });

    it("draws the same top-k / top-p / temperature tokens for the same seed", async () => {
      const { stock, "in-place": inPlace } = await bothPaths(model, trunk, topK);
      assert.deepEqual(inPlace.sampledTokens, stock.sampledTokens);
    });

    it("keeps a grammar-constrained call well-formed and the same on both paths", async () => {
      const schema = z.object({ answer: z.enum(["yes", "no"]), count: z.number().int() });
      const request: GenerateRequest = { maxTokens: 40, jsonSchema: z.toJSONSchema(schema) };
      const { stock, "in-place": inPlace } = await bothPaths(model, trunk, request);
      assert.ok(schema.safeParse(JSON.parse(inPlace.text)).success, `not valid: ${inPlace.text}`);
      assert.deepEqual(inPlace.sampledTokens, stock.sampledTokens);
    });
  });
});
