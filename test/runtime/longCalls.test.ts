// Long calls on the real runtime, through a real family's template (Qwen2.5-Instruct's tokenizer and chat
// template on random weights): a call's arguments are limited only by the agent's room, not by a fixed cap. A
// forced 3 KB write_file and a 4,000-character report go through whole; a call larger than the agent's room
// gets the tool error that says how much room it has; grammar-constrained sampling yields only well-formed calls
// or clear tool errors.
import assert from "node:assert/strict";
import { writeFileArgs } from "../../src/protocol/tools";
import { AgentChatFormat } from "../../src/runtime/agentChatFormat";
import type { SwarmModel } from "../../src/runtime/loadModel";
import { createSwarmContext, type SwarmContext } from "../../src/runtime/local/swarmContext";
import { AgentCalls, type AgentCallsOptions } from "../../src/worker/agent/agentCalls";
import type { CatalogTool } from "../../src/worker/agent/toolCatalog";
import { controlTools, writeReportArgs } from "../../src/worker/agent/tools/controlTools";
import { workspaceTools } from "../../src/worker/agent/tools/workspaceTools";
import { ensureFamilyModels, familyModelFile, modelFamilies } from "../fixtures/gguf/familyModels";
import { testRuntime } from "./runtimeTestModels";

function tool(name: string): CatalogTool {
  const found = [...workspaceTools, ...controlTools].find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name} in the catalogue`);
  return found as CatalogTool;
}
const tools = [tool("write_file"), tool("write_report")];

/** A realistic 3 KB source file: a statistics module with a function per line group. */
const bigFile = Array.from(
  { length: 60 },
  (_, i) => `export function stat${i}(values) {\n  return values.reduce((a, b) => a + b * ${i}, 0);\n}\n`,
).join("\n");
const longReport = `# Report\n\n${"The median is fixed and variance is merged on the integration branch. ".repeat(58)}`;

describe("long calls through a family's template (Qwen2.5-Instruct, random weights)", function () {
  let model: SwarmModel;
  let format: AgentChatFormat;
  let swarm: SwarmContext;

  before(async function () {
    this.timeout(600_000);
    const family = modelFamilies.find((f) => f.id === "qwen2.5")!;
    model = await testRuntime.loadModel({ modelPath: familyModelFile(await ensureFamilyModels(), family), threads: 1 });
    format = await AgentChatFormat.create(model, "You are agent-1. Call one tool at a time.", tools);
  });

  after(async () => {
    await model.dispose();
  });

  beforeEach(async () => {
    swarm = await createSwarmContext(model, { maxAgents: 1, kvCells: 8192, threads: 1 });
    await swarm.appendToTrunk(format.trunkTokens);
  });

  afterEach(async () => {
    await swarm.dispose();
  });

  async function callsFor(options: Partial<AgentCallsOptions>) {
    const agent = await swarm.fork("agent-1");
    const calls = new AgentCalls(agent, format, tools, {
      maxArgTokens: () => 100_000,
      temperature: 0,
      seed: 1,
      ...options,
    });
    await calls.open("Write src/stats.js, then report.");
    return calls;
  }

  it("forces a 3 KB write_file and a 4,000-character report through whole", async () => {
    assert.ok(bigFile.length > 3000 && longReport.length >= 4000);
    const calls = await callsFor({
      script: [
        { tool: "write_file", args: { path: "src/stats.js", content: bigFile } },
        { tool: "write_report", args: { title: "Swarm report", body: longReport } },
      ],
    });
    const write = await calls.next();
    assert.equal(write.kind, "call", JSON.stringify(write).slice(0, 300));
    assert.equal(write.kind === "call" && writeFileArgs.parse(JSON.parse(write.argsText)).content, bigFile);
    await calls.answer(JSON.stringify({ result: { path: "src/stats.js", bytes: bigFile.length, created: true } }));
    const report = await calls.next();
    assert.equal(report.kind, "call");
    assert.equal(report.kind === "call" && writeReportArgs.parse(JSON.parse(report.argsText)).body, longReport);
  });

  it("answers a call larger than the agent's room with a tool error that names the room", async () => {
    const calls = await callsFor({
      maxArgTokens: () => 400,
      script: [{ tool: "write_file", args: { path: "src/stats.js", content: bigFile } }],
    });
    const call = await calls.next();
    assert.equal(call.kind, "malformed");
    assert.match(
      call.kind === "malformed" ? call.reason : "",
      /arguments of write_file did not fit: you have room for \d+ more tokens .*write a large file in parts/,
    );
  });

  it("samples only well-formed calls or clear tool errors under the grammar", async () => {
    const calls = await callsFor({ maxArgTokens: () => 300, temperature: 0.8, seed: 3 });
    for (let step = 0; step < 3; step++) {
      const call = await calls.next();
      if (call.kind === "call") {
        const chosen = tools.find((t) => t.name === call.name);
        assert.ok(chosen, `${call.name} is one of the tools`);
        assert.ok(chosen.schema.safeParse(JSON.parse(call.argsText)).success, call.argsText.slice(0, 200));
      } else {
        assert.equal(call.kind, "malformed", "the pool is large enough that no call is cut by kv-full");
        assert.match(call.kind === "malformed" ? call.reason : "", /did not fit/);
      }
      await calls.answer(JSON.stringify({ error: "test: call noted" }));
    }
  });

  it("ends a call in flight when its deadline gives a reason, as a tool error", async () => {
    let asked = 0;
    const calls = await callsFor({
      temperature: 0.8,
      seed: 3,
      // Polled every millisecond, the deadline passes at once: the call has started and is ended mid-way.
      deadlinePollMs: 1,
      callDeadline: () => (++asked >= 1 ? "the wall-clock budget ran out" : undefined),
    });
    const call = await calls.next();
    assert.ok(
      asked >= 1,
      `the deadline was polled while the call was generated: ${JSON.stringify(call).slice(0, 300)}`,
    );
    assert.equal(call.kind, "malformed", JSON.stringify(call).slice(0, 200));
    assert.match(call.kind === "malformed" ? call.reason : "", /^the wall-clock budget ran out: the call was cut off$/);
  });
});
