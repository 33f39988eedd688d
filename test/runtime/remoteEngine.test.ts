// The remote engine against a real llama-server on loopback, built from the llama.cpp source node-llama-cpp ships:
// the checks before agents start, forks that send the trunk plus a tail, the engine's cached-token counts, the
// same stop and grammar behaviour as the local runtime, and a server that dies mid-generation and comes back.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { EngineStateEvent } from "../../src/protocol/runtime";
import type { EngineAgent, EngineContext } from "../../src/runtime/port/engine";
import { openEngine } from "../../src/runtime/engines";
import type { SwarmEngine } from "../../src/runtime/port/engine";
import { createSwarmContext, type SwarmContext } from "../../src/runtime/local/swarmContext";
import { freePort, LlamaServerProcess } from "../../bench/llamaServerProcess";
import { sharedModelPath, testRuntime } from "./runtimeTestModels";

const modelPath = () => sharedModelPath("tiny-random-qwen2-chatml.gguf");
const remote = (url: string, model = "", dialect: "auto" | "openai" = "auto") => ({
  kind: "remote" as const,
  url,
  model,
  dialect,
  timeoutMs: 60_000,
  busyRetries: 2,
});

/** A trunk of realistic size: a few kilobytes of instructions, as a swarm's charter and tools are. */
const trunkText = Array.from(
  { length: 40 },
  (_, i) => `Rule ${i + 1}: read the file before you edit it, claim the scope first, and post what you learn.`,
).join("\n");

async function rejectsWith(promise: Promise<unknown>, code: string, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (error: Error & { code?: string }) => {
    assert.equal(error.code, code, error.message);
    assert.match(error.message, pattern);
    return true;
  });
}

/**
 * The same trunk on the local runtime and on `remoteEngine`, agent-1 forked from each: `body` compares them.
 * Everything (the local model too) is disposed after.
 */
async function sideBySide(
  remoteEngine: SwarmEngine,
  body: (here: EngineAgent, there: EngineAgent, remote: EngineContext, local: SwarmContext) => Promise<void>,
): Promise<void> {
  const model = await testRuntime.loadModel({ modelPath: modelPath(), threads: 1 });
  const local = await createSwarmContext(model, { maxAgents: 1, kvCells: 4096 });
  const remote = await remoteEngine.createContext({ maxAgents: 1, kvCells: 1 });
  try {
    await local.appendToTrunk(trunkText);
    await remote.appendToTrunk(trunkText);
    await body(await local.fork("agent-1"), await remote.fork("agent-1"), remote, local);
  } finally {
    await remote.dispose();
    await local.dispose();
    await model.dispose();
  }
}

describe("the remote engine on a real llama-server", function () {
  let server: LlamaServerProcess;
  let engine: SwarmEngine;

  before(async function () {
    server = await LlamaServerProcess.start({
      modelPath: modelPath(),
      slots: 4,
      contextCells: 16_384,
      alias: "tiny-qwen",
    });
    engine = await openEngine(remote(server.url), { modelPath: modelPath(), threads: 1 }, testRuntime);
  });
  after(async () => server?.stop());

  it("checks the engine before any agent starts and says what it serves", () => {
    assert.equal(engine.kind, "remote");
    assert.equal(engine.remote?.dialect, "llama-server", "auto finds llama-server's own API");
    assert.equal(engine.remote?.engineModel, "tiny-qwen");
    assert.ok((engine.remote?.slotCells ?? 0) >= 4096, `context per request ${engine.remote?.slotCells}`);
    assert.equal(engine.remote?.slots, 4);
  });

  it("sends each fork the trunk plus its own tail, and shows how much of it came from the engine's cache", async () => {
    const context = await engine.createContext({ maxAgents: 3, kvCells: 1 });
    try {
      await context.appendToTrunk(trunkText);
      const trunk = context.trunkTokens.length;
      assert.ok(trunk > 600, `a trunk of ${trunk} tokens`);
      const agents: EngineAgent[] = [];
      for (let i = 1; i <= 3; i++) agents.push(await context.fork(`agent-${i}`));
      assert.ok(
        agents.every((a) => a.tokens.length === trunk),
        "a fork holds exactly the trunk",
      );
      const round = () =>
        Promise.all(agents.map((a, i) => a.generate({ maxTokens: 6, prompt: `\nAgent ${i + 1} says:` })));
      await round();
      const first = context.stats().engine!;
      await round();
      const second = context.stats().engine!;
      assert.equal(second.cacheReported, true);
      const cachedNow = second.cachedPromptTokens - first.cachedPromptTokens;
      const computedNow = second.computedPromptTokens - first.computedPromptTokens;
      // Each agent's second request starts with its whole first one: the engine finds it in the slot's cache.
      assert.ok(cachedNow >= 3 * trunk, `second round: ${cachedNow} cached, ${computedNow} computed`);
      assert.ok(computedNow < 3 * 40, `second round computed only the new tails: ${computedNow}`);
      const stats = context.stats();
      assert.equal(stats.mode, "remote-engine");
      assert.equal(stats.trunkCells, trunk);
      assert.equal(stats.agents.length, 3);
      assert.ok(stats.agents.every((a) => a.privateCells > 0 && a.sequenceCells > trunk));
    } finally {
      await context.dispose();
    }
  });

  it("generates the local runtime's tokens for the same prompt, and stops at a stop string the same way", async () => {
    await sideBySide(engine, async (here, there, remoteContext, localContext) => {
      assert.deepEqual(remoteContext.trunkTokens, localContext.trunkTokens, "the same trunk tokens");
      const forced = localContext.model.tokenize(' {"name": "read_file"} and then more text');
      const request = { maxTokens: 64, forcedTokens: forced, stop: ["} and"], dropStopText: true };
      const a = await here.generate(request);
      const b = await there.generate(request);
      assert.deepEqual({ ...b, sampledTokens: [] }, { ...a, sampledTokens: [] });
      assert.equal(b.stopReason, "stop");
      assert.equal(b.text, ' {"name": "read_file"');
      assert.deepEqual(there.tokens, here.tokens, "both contexts hold the text before the stop, nothing after");
      const greedyHere = await here.generate({ maxTokens: 12, prompt: "\nNext:" });
      const greedyThere = await there.generate({ maxTokens: 12, prompt: "\nNext:" });
      assert.deepEqual(greedyThere.tokens, greedyHere.tokens, "greedy decoding agrees token for token");
    });
  });

  it("constrains a call with a GBNF grammar and with a JSON schema", async () => {
    const context = await engine.createContext({ maxAgents: 1, kvCells: 1 });
    try {
      await context.appendToTrunk(trunkText);
      const agent = await context.fork("agent-1");
      const choice = await agent.generate({ maxTokens: 16, gbnf: 'root ::= "read_file" | "edit_file"' });
      assert.ok(["read_file", "edit_file"].includes(choice.text), choice.text);
      const schema = {
        type: "object",
        properties: { path: { type: "string", maxLength: 20 }, line: { type: "integer" } },
        required: ["path", "line"],
      };
      const call = await agent.generate({ maxTokens: 200, jsonSchema: schema });
      const parsed = JSON.parse(call.text) as { path: unknown; line: unknown };
      assert.equal(typeof parsed.path, "string");
      assert.ok(Number.isInteger(parsed.line), call.text);
    } finally {
      await context.dispose();
    }
  });

  it("pauses an agent whose server died mid-generation, and finishes it when the server is back", async function () {
    const context = await engine.createContext({ maxAgents: 1, kvCells: 1 });
    const states: EngineStateEvent[] = [];
    context.onEngineState((event) => states.push(event));
    try {
      await context.appendToTrunk(trunkText);
      const agent = await context.fork("agent-1");
      let seen = 0;
      let restarted: Promise<void> | undefined;
      const generation = agent.generate({
        maxTokens: 400,
        prompt: "\nWrite at length:",
        onText: (_text, tokens) => {
          seen = tokens;
          if (tokens === 20 && restarted === undefined) {
            restarted = server.kill().then(async () => {
              await new Promise((resolve) => setTimeout(resolve, 1500));
              await server.start();
            });
          }
        },
      });
      const result = await generation;
      await restarted;
      assert.equal(result.stopReason === "max-tokens" || result.stopReason === "eos", true, result.stopReason);
      assert.ok(seen > 20, `it went on after the server came back (${seen} tokens)`);
      assert.deepEqual(
        states.map((s) => [s.state, s.waitingAgents]),
        [
          ["unreachable", ["agent-1"]],
          ["back", ["agent-1"]],
        ],
      );
      assert.match(states[0]!.message, /stopped answering.*nothing is lost/);
      const tail = agent.tokens.slice(-result.tokens.length);
      assert.deepEqual(tail, result.tokens, "every token it produced, before and after the outage, is in its context");
    } finally {
      await context.dispose();
    }
  });

  describe("the OpenAI-compatible dialect (llama-server's /v1/completions, as vLLM and SGLang serve it)", () => {
    let openai: SwarmEngine;
    before(async () => {
      openai = await openEngine(
        remote(server.url, "tiny-qwen", "openai"),
        { modelPath: modelPath(), threads: 1 },
        testRuntime,
      );
    });

    it("sends token-id prompts, re-tokenizes the text it gets back, and counts the cached prompt tokens", async () => {
      assert.equal(openai.remote?.dialect, "openai");
      assert.ok((openai.remote?.slotCells ?? 0) >= 4096, `context ${openai.remote?.slotCells}`);
      await sideBySide(openai, async (here, there, context) => {
        const greedyHere = await here.generate({ maxTokens: 12, prompt: "\nNext:" });
        const greedyThere = await there.generate({ maxTokens: 12, prompt: "\nNext:" });
        assert.equal(greedyThere.text, greedyHere.text, "the same greedy text as the local runtime");
        await there.generate({ maxTokens: 4, prompt: "\nAgain:" });
        const engineStats = context.stats().engine!;
        assert.equal(engineStats.cacheReported, true, JSON.stringify(engineStats));
        assert.ok(engineStats.cachedPromptTokens >= context.trunkTokens.length, JSON.stringify(engineStats));
      });
    });

    it("constrains a call with a grammar and stops at a stop string", async () => {
      const context = await openai.createContext({ maxAgents: 1, kvCells: 1 });
      try {
        await context.appendToTrunk(trunkText);
        const agent = await context.fork("agent-1");
        const choice = await agent.generate({ maxTokens: 16, gbnf: 'root ::= "read_file" | "edit_file"' });
        assert.ok(["read_file", "edit_file"].includes(choice.text), choice.text);
        const prompt = agent.tokens.length;
        const counted = () => context.stats().engine!.computedPromptTokens + context.stats().engine!.cachedPromptTokens;
        const before = counted();
        const stopped = await agent.generate({
          maxTokens: 40,
          gbnf: 'root ::= "alpha beta gamma delta"',
          stop: [" gamma"],
        });
        assert.equal(stopped.stopReason, "stop");
        assert.equal(stopped.text, "alpha beta");
        // The engine sends the usage only at its own end: the stream is read on for it after the local stop.
        for (let waited = 0; counted() - before < prompt; waited += 50) {
          assert.ok(waited < 10_000, `the stopped request's prompt (${prompt} tokens) was never counted`);
          await new Promise((r) => setTimeout(r, 50));
        }
      } finally {
        await context.dispose();
      }
    });
  });

  describe("refuses an engine it cannot use, before any agent starts", () => {
    it("a URL where nothing listens", async () => {
      const url = `http://127.0.0.1:${await freePort()}`;
      await rejectsWith(
        openEngine(remote(url), { modelPath: modelPath(), threads: 1 }, testRuntime),
        "engine-unreachable",
        /unreachable.*Start the server/,
      );
    });

    it("a model name the server does not serve", async () => {
      await rejectsWith(
        openEngine(remote(server.url, "qwen-7b"), { modelPath: modelPath(), threads: 1 }, testRuntime),
        "engine-wrong-model",
        /does not serve a model named "qwen-7b"; it serves "tiny-qwen"/,
      );
    });

    it("a server that runs another model than the local vocabulary", async () => {
      await rejectsWith(
        openEngine(remote(server.url), { modelPath: sharedModelPath("stories260K.gguf"), threads: 1 }, testRuntime),
        "engine-vocabulary-mismatch",
        /tokenizes text differently/,
      );
    });

    it("a server that ignores grammars (llama-server behind a proxy that drops them)", async () => {
      const proxy = await grammarDroppingProxy(server.url);
      try {
        const url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
        await rejectsWith(
          openEngine(remote(url), { modelPath: modelPath(), threads: 1 }, testRuntime),
          "engine-no-grammar",
          /ignored a grammar/,
        );
      } finally {
        proxy.close();
      }
    });
  });
});

/** A real engine that does not honour grammars: llama-server with the grammar fields taken out of each request. */
async function grammarDroppingProxy(target: string): Promise<Server> {
  const proxy = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks).toString();
    if (body.length > 0) {
      const { grammar: _g, json_schema: _j, ...rest } = JSON.parse(body) as Record<string, unknown>;
      body = JSON.stringify(rest);
    }
    const reply = await fetch(`${target}${request.url}`, {
      method: request.method!,
      headers: { "content-type": "application/json" },
      ...(request.method === "GET" ? {} : { body }),
    });
    response.writeHead(reply.status, { "content-type": reply.headers.get("content-type") ?? "application/json" });
    response.end(Buffer.from(await reply.arrayBuffer()));
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return proxy;
}
