// The remote engine on every real model family, not only ChatML: for each family's test model (its real tokenizer
// and chat template) a real llama-server serves it, the engine's checks pass (same vocabulary through the server's
// own /tokenize, special tokens included; a grammar honoured), and the sample task's trajectory, forced through the
// family's template on the remote engine, makes the same calls and leaves the agent holding the same tokens as on
// the local runtime. Then greedy decoding agrees token for token, and the engine's prefix cache served most prompts.
import assert from "node:assert/strict";
import type { EngineAgent, EngineContext } from "../../../src/runtime/port/engine";
import { AgentChatFormat } from "../../../src/runtime/agentChatFormat";
import { openEngine } from "../../../src/runtime/engines";
import type { SwarmEngine } from "../../../src/runtime/port/engine";
import type { SwarmModel } from "../../../src/runtime/loadModel";
import { createSwarmContext } from "../../../src/runtime/local/swarmContext";
import { AgentCalls } from "../../../src/worker/agent/agentCalls";
import type { CatalogTool } from "../../../src/worker/agent/toolCatalog";
import { workspaceTools } from "../../../src/worker/agent/tools/workspaceTools";
import { LlamaServerProcess } from "../../../bench/llamaServerProcess";
import { ensureFamilyModels, familyModelFile, modelFamilies } from "../../fixtures/gguf/familyModels";
import { sampleTaskTrajectory } from "./sampleTaskTrajectory";
import { testRuntime } from "../runtimeTestModels";

const toolNames = ["read_file", "edit_file", "write_file", "run_command", "commit", "merge_progress"];
const tools: CatalogTool[] = workspaceTools.filter((t) => toolNames.includes(t.name));
const system = "You are agent-1. Fix the task, test, commit, merge.";
const task = "Fix median for even-length lists and add variance(values) with a test.";

/** What each call gets back: the same realistic result on both engines (the tools ran for real in
 * familyTrajectories.test.ts; here the engines are compared). */
function resultFor(name: string, step: number): string {
  const body = Array.from({ length: 30 }, (_, i) => `line ${i + 1} of the file read at step ${step}`).join("\n");
  return JSON.stringify({ result: name === "read_file" ? { path: "src/stats.js", content: body } : { ok: true } });
}

interface Walk {
  readonly calls: Array<{ name: string; argsText: string; thought?: string }>;
  readonly agent: EngineAgent;
}

/** The forced trajectory through `context`, answering each call with `resultFor`. */
async function walk(model: SwarmModel, context: EngineContext): Promise<Walk> {
  const format = await AgentChatFormat.create(model, system, tools);
  await context.appendToTrunk(format.trunkTokens);
  const agent = await context.fork("agent-1");
  const script = sampleTaskTrajectory();
  const calls = new AgentCalls(agent, format, tools, { maxArgTokens: () => 16_000, temperature: 0, seed: 1, script });
  await calls.open(task);
  const made: Walk["calls"] = [];
  for (const [i, step] of script.entries()) {
    const call = await calls.next();
    assert.equal(call.kind, "call", `${step.tool}: ${JSON.stringify(call).slice(0, 300)}`);
    if (call.kind !== "call") break;
    made.push({ name: call.name, argsText: call.argsText, ...(call.thought ? { thought: call.thought.text } : {}) });
    await calls.answer(resultFor(call.name, i));
  }
  return { calls: made, agent };
}

describe("the remote engine on each real model family (llama-server, forced trajectories)", function () {
  this.timeout(900_000);
  let dir: string;

  before(async () => {
    dir = await ensureFamilyModels();
  });

  for (const family of modelFamilies) {
    it(`${family.label}: checked, then the same calls and tokens as the local runtime`, async () => {
      const modelPath = familyModelFile(dir, family);
      const server = await LlamaServerProcess.start({ modelPath, slots: 1, contextCells: 16_384, alias: family.id });
      const local = await testRuntime.loadModel({ modelPath, threads: 1 });
      let engine: SwarmEngine | undefined;
      const contexts: EngineContext[] = [];
      try {
        // openEngine runs the checks: a vocabulary or grammar mismatch is refused here, with its code.
        engine = await openEngine(
          { kind: "remote", url: server.url, model: "", dialect: "auto", timeoutMs: 120_000, busyRetries: 2 },
          { modelPath, threads: 1 },
          testRuntime,
        );
        assert.equal(engine.remote?.engineModel, family.id);
        const here = await createSwarmContext(local, { maxAgents: 1, kvCells: 16_384, threads: 1 });
        contexts.push(here);
        const there = await engine.createContext({ maxAgents: 1, kvCells: 1 });
        contexts.push(there);
        const a = await walk(local, here);
        const b = await walk(engine.model, there);
        assert.deepEqual(b.calls, a.calls, "the same calls, arguments and thoughts");
        assert.equal(b.calls.length, sampleTaskTrajectory().length);
        assert.deepEqual(b.agent.tokens, a.agent.tokens, "the agent holds the same tokens on both engines");
        assert.ok(a.agent.tokens.length > 2500, `a realistic context: ${a.agent.tokens.length} tokens`);
        const greedyHere = await a.agent.generate({ maxTokens: 8, prompt: "\nNext:" });
        const greedyThere = await b.agent.generate({ maxTokens: 8, prompt: "\nNext:" });
        assert.deepEqual(greedyThere.tokens, greedyHere.tokens, "greedy decoding agrees token for token");
        const stats = there.stats().engine!;
        assert.ok(stats.requests > sampleTaskTrajectory().length, `${stats.requests} requests`);
        assert.ok(stats.cachedPromptTokens > stats.computedPromptTokens, JSON.stringify(stats));
      } finally {
        for (const c of contexts) await c.dispose();
        await engine?.model.dispose();
        await local.dispose();
        await server.stop();
      }
    });
  }
});
