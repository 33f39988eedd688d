// The controls an agent's generation takes: stop strings, a JSON-schema grammar, an abort signal, and the
// refusals that keep a sequence consistent (busy, released, nothing to continue from).
import assert from "node:assert/strict";
import { z } from "zod";
import type { SwarmModel } from "../../src/runtime/loadModel";
import { SwarmRuntimeError } from "../../src/runtime/runtimeErrors";
import { createSwarmContext, type SwarmContext } from "../../src/runtime/local/swarmContext";
import { loadStoriesModel, storyTrunk } from "./runtimeTestModels";

describe("generation controls (stories260K)", () => {
  let model: SwarmModel;
  let swarm: SwarmContext;

  before(async () => {
    model = await loadStoriesModel();
  });

  beforeEach(async () => {
    swarm = await createSwarmContext(model, { maxAgents: 2, kvCells: 1024, threads: 1 });
    await swarm.appendToTrunk(storyTrunk);
  });

  afterEach(async () => {
    await swarm.dispose();
  });

  it("stops at a stop string and leaves it out of the text", async () => {
    const agent = await swarm.fork("a1");
    const free = await (await swarm.fork("a2")).generate({ maxTokens: 40 });
    // Greedy decoding is deterministic: stop on a word the free run produced.
    const word = free.text.trim().split(/\s+/)[2];
    const result = await agent.generate({ maxTokens: 40, stop: [word] });
    assert.equal(result.stopReason, "stop");
    assert.equal(result.stopString, word);
    assert.equal(result.text, free.text.slice(0, free.text.indexOf(word)));
  });

  it("produces JSON that fits a schema when given one", async () => {
    const schema = z.object({ name: z.enum(["Lily", "Tom"]), age: z.number().int() });
    const agent = await swarm.fork("a3");
    const result = await agent.generate({ maxTokens: 60, jsonSchema: z.toJSONSchema(schema), prompt: " Answer: " });
    const parsed = schema.safeParse(JSON.parse(result.text));
    assert.ok(parsed.success, `not valid: ${result.text}`);
  });

  it("produces only what a GBNF grammar allows when given one", async () => {
    const agent = await swarm.fork("a4");
    const result = await agent.generate({
      maxTokens: 20,
      gbnf: 'root ::= ("Lily" | "Tom") " ran"',
      prompt: " Who ran? ",
    });
    assert.ok(["Lily ran", "Tom ran"].includes(result.text), `not allowed: ${JSON.stringify(result.text)}`);
    assert.equal(result.stopReason, "eos", "the grammar ends the generation when it is complete");
  });

  it("stops with 'aborted' when its signal fires, and the others go on", async () => {
    const [stopped, going] = [await swarm.fork("a5"), await swarm.fork("a6")];
    const controller = new AbortController();
    const results = await Promise.all([
      stopped.generate({ maxTokens: 50, signal: controller.signal }),
      going.generate({ maxTokens: 12 }).finally(() => undefined),
      new Promise<void>((resolve) => setImmediate(() => resolve(controller.abort()))),
    ]);
    assert.equal(results[0].stopReason, "aborted");
    assert.ok(results[0].tokens.length < 50);
    assert.equal(results[1].stopReason, "max-tokens");
  });

  it("refuses overlapping work on one agent, work on a released one, and forced tokens with a grammar", async () => {
    const agent = await swarm.fork("a7");
    const running = agent.generate({ maxTokens: 5 });
    await assert.rejects(
      agent.append("more"),
      (error: unknown) => error instanceof SwarmRuntimeError && error.code === "agent-busy",
    );
    await running;
    await assert.rejects(
      agent.generate({ maxTokens: 3, forcedTokens: model.tokenize("x"), jsonSchema: { type: "string" } }),
      (error: unknown) => error instanceof SwarmRuntimeError && error.code === "invalid-request",
    );
    await agent.release();
    await assert.rejects(
      agent.generate({ maxTokens: 3 }),
      (error: unknown) => error instanceof SwarmRuntimeError && error.code === "agent-released",
    );
  });

  it("forks under the id it is given and refuses an id that is live (or the trunk's)", async () => {
    const agent = await swarm.fork("agent-7");
    assert.equal(agent.id, "agent-7");
    for (const id of ["agent-7", "trunk"]) {
      await assert.rejects(
        swarm.fork(id),
        (error: unknown) => error instanceof SwarmRuntimeError && error.code === "invalid-request",
      );
    }
    await agent.release();
    assert.equal((await swarm.fork("agent-7")).id, "agent-7", "a released id can be forked again");
  });
});
