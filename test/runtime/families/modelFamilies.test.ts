// Real model families' chat formats on the real runtime: test models with each family's real tokenizer and
// chat template (test/fixtures/gguf/familyModels.ts, made offline from the llama.cpp source node-llama-cpp
// ships) resolve to the chat wrapper node-llama-cpp picks for the real model, and an agent's turns rendered by
// AgentChatFormat read exactly as the wrapper itself renders the same conversation.
import assert from "node:assert/strict";
import { AgentChatFormat } from "../../../src/runtime/agentChatFormat";
import type { SwarmModel } from "../../../src/runtime/loadModel";
import { loadNodeLlamaCpp } from "../../../src/runtime/nodeLlamaCpp";
import { createSwarmContext } from "../../../src/runtime/local/swarmContext";
import { describeEachFamily, squeeze } from "./eachFamily";

/** The wrapper node-llama-cpp 3.22.1 resolves for each family's real template (asserted by name). */
const expectedWrappers: Record<string, string> = {
  "qwen2.5": "JinjaTemplate",
  qwen3: "Qwen",
  "qwen3-coder": "JinjaTemplate",
  devstral: "JinjaTemplate",
  "llama3.2": "JinjaTemplate",
  gemma4: "Gemma 4",
  smollm3: "JinjaTemplate",
};

const tools = [
  {
    name: "read_file",
    description: "Read a file.",
    jsonSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
  {
    name: "write_file",
    description: "Write a file.",
    jsonSchema: {
      type: "object",
      properties: { path: { type: "string" }, content: { type: "string" } },
      required: ["path", "content"],
    },
  },
];
const system = "You are agent-1 of a swarm. Call one tool at a time.";
const user = "Fix median in src/stats.js.";
const firstArgs = { path: "src/stats.js" };
const firstResult = { result: { path: "src/stats.js", content: "export function median(values) {}" } };
const secondArgs = { path: "src/stats.js", content: "export function median(values) { return 0; }\n" };

/** The same conversation rendered by the wrapper itself, as text. */
async function wrapperRendering(model: SwarmModel): Promise<string> {
  const { resolveChatWrapper } = await loadNodeLlamaCpp();
  const wrapper = resolveChatWrapper(model.model);
  const functions = Object.fromEntries(
    tools.map((t) => [t.name, { description: t.description, params: t.jsonSchema as never }]),
  );
  const state = wrapper.generateContextState({
    chatHistory: [
      { type: "system", text: system },
      { type: "user", text: user },
      {
        type: "model",
        response: [
          { type: "functionCall", name: "read_file", params: firstArgs, result: firstResult },
          { type: "functionCall", name: "write_file", params: secondArgs, result: "", startsNewChunk: true },
        ],
      },
    ],
    availableFunctions: functions,
  });
  return model.detokenize(state.contextText.tokenize(model.model.tokenizer));
}

/** Whitespace is left out of the comparison: templates differ in JSON spacing, never in structure. */

describe("model families: real tokenizers and chat templates on the real runtime", function () {
  describeEachFamily((family, loaded) => {
    let model: SwarmModel;

    before(() => {
      model = loaded();
    });

    it(`resolves the ${expectedWrappers[family.id]} chat wrapper and renders agent turns as it does`, async () => {
      const format = await AgentChatFormat.create(model, system, tools);
      assert.equal(format.wrapperName, expectedWrappers[family.id]);
      const ours = [
        ...format.trunkTokens,
        ...format.openingTokens(user),
        ...format.tokenize("read_file"),
        ...format.paramsPrefixTokens(),
        ...format.tokenize(JSON.stringify(firstArgs)),
        ...format.resultTokens(JSON.stringify(firstResult), "read_file"),
        ...format.tokenize("write_file"),
        ...format.paramsPrefixTokens(),
        ...format.tokenize(JSON.stringify(secondArgs)),
      ];
      const theirs = squeeze(await wrapperRendering(model));
      const mine = squeeze(model.detokenize(ours));
      assert.ok(
        theirs.startsWith(mine.replace(/^<s>|^<\|begin_of_text\|>|^<bos>/, "")) || theirs.startsWith(mine),
        `the agent's turns differ from the wrapper's rendering:\n ours:   ${mine}\n theirs: ${theirs}`,
      );
    });

    it("forces a call through the real template and decodes it in the agent's cells", async () => {
      const format = await AgentChatFormat.create(model, system, tools);
      const swarm = await createSwarmContext(model, { maxAgents: 1, kvCells: 2048, threads: 1 });
      try {
        await swarm.appendToTrunk(format.trunkTokens);
        const agent = await swarm.fork("agent-1");
        await agent.append(format.openingTokens(user));
        const name = format.tokenize("read_file");
        const result = await agent.generate({ maxTokens: name.length, forcedTokens: name });
        assert.equal(result.text, "read_file");
        await agent.append(format.paramsPrefixTokens());
        const args = format.tokenize(JSON.stringify(firstArgs));
        const argsResult = await agent.generate({ maxTokens: args.length, forcedTokens: args });
        assert.deepEqual(JSON.parse(argsResult.text), firstArgs);
      } finally {
        await swarm.dispose();
      }
    });
  });
});
