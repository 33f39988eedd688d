// Thinking before a call, in each family's own way, on the real runtime: the agent's text then its call read
// exactly as the family's chat wrapper renders a model turn with a thought before each call (Qwen3's
// <think>...</think><tool_call>, Gemma 4's thought channel, text before [TOOL_CALLS] for Mistral, ...); free text
// that ends at a stop string keeps only the text (the stop's tokens leave the context and the ledger); and a free
// run with thinking on yields only well-formed calls or clear tool errors.
import assert from "node:assert/strict";
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import { AgentChatFormat } from "../../../src/runtime/agentChatFormat";
import type { SwarmModel } from "../../../src/runtime/loadModel";
import { loadNodeLlamaCpp } from "../../../src/runtime/nodeLlamaCpp";
import { createSwarmContext } from "../../../src/runtime/local/swarmContext";
import { AgentCalls } from "../../../src/worker/agent/agentCalls";
import type { CatalogTool } from "../../../src/worker/agent/toolCatalog";
import { controlTools } from "../../../src/worker/agent/tools/controlTools";
import { workspaceTools } from "../../../src/worker/agent/tools/workspaceTools";
import { describeEachFamily, squeeze } from "./eachFamily";

const tools: CatalogTool[] = [
  ...workspaceTools.filter((t) => t.name === "read_file"),
  ...controlTools.filter((t) => t.name === "finish"),
] as CatalogTool[];
const system = "You are agent-1 of a swarm. Think, then call one tool at a time.";
const user = "Fix median in src/stats.js.";
const thought1 = "The bug is in median: I should read src/stats.js first.";
const thought2 = "Sorting compares strings; the fix is a numeric comparator.";
const args1 = { path: "src/stats.js" };
const result1 = { result: { path: "src/stats.js", content: "function median(values) {}" } };
const args2 = { summary: "Found the bug." };

/** How each family shows a thought before a call: its own thinking markup, or the text right before the call. */
const thoughtThenCall: Record<string, RegExp> = {
  "qwen2.5": /assistant\nThe bug is in median: I should read src\/stats\.js first\.\n<tool_call>\n\{"name": "read_file/,
  qwen3:
    /<think>\nThe bug is in median: I should read src\/stats\.js first\.\n<\/think><tool_call>\n\{"name": "read_file/,
  "qwen3-coder": /first\.\n\n<tool_call>\n<function=read_file/,
  devstral: /\[\/INST\]The bug is in median: I should read src\/stats\.js first\.\[TOOL_CALLS\]read_file/,
  "llama3.2": /first\.<\|eot_id\|><\|start_header_id\|>assistant<\|end_header_id\|>\n\n\{"name": "read_file/,
  gemma4:
    /<\|channel>thoughtThe bug is in median: I should read src\/stats\.js first\.<channel\|><\|tool_call>call:read_file/,
  smollm3: /<think>\nThe bug is in median: I should read src\/stats\.js first\.\n<\/think>\|\|call: read_file/,
};

/** The wrapper's own rendering of the turn: a thought segment before each call. */
async function wrapperRendering(model: SwarmModel): Promise<string> {
  const { resolveChatWrapper } = await loadNodeLlamaCpp();
  const functions = Object.fromEntries(
    tools.map((t) => [t.name, { description: t.description, params: t.jsonSchema as never }]),
  );
  const thought = (text: string) => ({ type: "segment" as const, segmentType: "thought" as const, text, ended: true });
  const state = resolveChatWrapper(model.model).generateContextState({
    chatHistory: [
      { type: "system", text: system },
      { type: "user", text: user },
      {
        type: "model",
        response: [
          thought(thought1),
          { type: "functionCall", name: "read_file", params: args1, result: result1 },
          thought(thought2),
          { type: "functionCall", name: "finish", params: args2, result: "", startsNewChunk: true },
        ],
      },
    ],
    availableFunctions: functions,
  });
  return withSpecials(model, state.contextText.tokenize(model.model.tokenizer));
}

/** The text of tokens, the template's special tokens spelled out. */
const withSpecials = (model: SwarmModel, tokens: readonly Token[]) => model.model.detokenize(tokens, true);
const withoutBos = (text: string) => text.replace(/^<s>|^<\|begin_of_text\|>|^<bos>/, "");

describe("model families: thinking before a call, through each real template", function () {
  this.timeout(600_000);
  describeEachFamily((family, loaded) => {
    let model: SwarmModel;

    before(() => {
      model = loaded();
    });

    it("forces thinking then a call, twice, decoded as the family's wrapper renders them", async () => {
      const format = await AgentChatFormat.create(model, system, tools);
      assert.ok(format.canThink, `${family.label} has a place for text before a call`);
      const swarm = await createSwarmContext(model, { maxAgents: 1, kvCells: 4096, threads: 1 });
      try {
        await swarm.appendToTrunk(format.trunkTokens);
        const agent = await swarm.fork("agent-1");
        const streamed: string[] = [];
        const script = [
          { tool: "read_file", args: args1, think: thought1 },
          { tool: "finish", args: args2, think: thought2 },
        ];
        const calls = new AgentCalls(agent, format, tools, {
          maxArgTokens: () => 2048,
          temperature: 0,
          seed: 1,
          script,
          thinking: { onText: (text) => streamed.push(text) },
        });
        await calls.open(user);
        const first = await calls.next();
        assert.equal(first.kind, "call");
        if (first.kind !== "call") return;
        assert.deepEqual([first.name, first.thought?.text], ["read_file", thought1]);
        assert.equal(streamed.join(""), thought1, "the thought streamed to the lane as it was written");
        assert.ok(first.tokens > first.thought!.tokens, "the turn's tokens count the thought and the call");
        await calls.answer(JSON.stringify(result1));
        const second = await calls.next();
        assert.equal(second.kind === "call" && second.thought?.text, thought2);
        const ours = withSpecials(model, agent.tokens);
        assert.match(ours, thoughtThenCall[family.id]!);
        // Llama 3.2's template has no text in a call's message: node-llama-cpp renders the text as a message of its
        // own when the sample's arguments are strings, and runs it into the call's JSON when they are objects. An
        // agent's text is its own message (the model ends it with <|eot_id|>), as the regex above asserts.
        if (family.id === "llama3.2") return;
        const theirs = withoutBos(await wrapperRendering(model));
        const mine = withoutBos(ours);
        assert.ok(
          theirs.startsWith(mine) || squeeze(theirs).startsWith(squeeze(mine)),
          `the agent's turns differ from the wrapper's rendering:\n ours:   ${JSON.stringify(mine)}\n theirs: ${JSON.stringify(theirs)}`,
        );
      } finally {
        await swarm.dispose();
      }
    });

    it("free text that ends at the family's stop keeps only the text, in the context and the ledger", async () => {
      const format = await AgentChatFormat.create(model, system, tools);
      const swarm = await createSwarmContext(model, { maxAgents: 1, kvCells: 4096, threads: 1 });
      try {
        await swarm.appendToTrunk(format.trunkTokens);
        const agent = await swarm.fork("agent-1");
        await agent.append(format.openingTokens(user, true));
        const before = agent.tokens.length;
        // What a model writes when it closes its thought on its own, in the family's own tokens (control tokens
        // where the vocabulary has them), and goes on past the stop.
        const written = [...format.tokenize(thought1), ...format.thinkingToCallTokens(), ...format.tokenize("x")];
        const text = await agent.generate({
          maxTokens: written.length + 8,
          forcedTokens: written,
          stop: format.thinkingStops,
          dropStopText: true,
        });
        // Llama 3.2 ends a text message with <|eot_id|>, its end of turn: the text ends there without a stop.
        assert.equal(text.stopReason, family.id === "llama3.2" ? "eos" : "stop");
        assert.equal(text.text, thought1);
        assert.equal(model.detokenize(agent.tokens.slice(before)), thought1, "the stop's tokens left the context");
        assert.equal(agent.tokens.length - before, text.tokens.length);
        await agent.append(format.thinkingToCallTokens());
        const name = format.tokenize("read_file");
        await agent.generate({ maxTokens: name.length, forcedTokens: name });
        for (const check of swarm.checkPositions()) {
          assert.equal(check.llamaMaxPosition + 1, check.ledgerCells, `${check.id}: ledger equals llama.cpp`);
        }
        assert.match(withSpecials(model, agent.tokens), thoughtThenCall[family.id]!);
      } finally {
        await swarm.dispose();
      }
    });

    it("a free run with thinking on makes well-formed calls or clear tool errors", async () => {
      const format = await AgentChatFormat.create(model, system, tools);
      const swarm = await createSwarmContext(model, { maxAgents: 1, kvCells: 8192, threads: 1 });
      try {
        await swarm.appendToTrunk(format.trunkTokens);
        const agent = await swarm.fork("agent-1");
        let streamedTokens = 0;
        const calls = new AgentCalls(agent, format, tools, {
          maxArgTokens: () => 160,
          temperature: 0.8,
          seed: 7,
          thinking: { maxTokens: 24, onText: (_text, tokens) => (streamedTokens += tokens) },
        });
        await calls.open(user);
        for (let turn = 0; turn < 2; turn++) {
          const call = await calls.next();
          assert.notEqual(call.kind, "kv-full");
          if (call.kind === "kv-full") return;
          assert.ok(call.thought !== undefined, "the agent thought before its call");
          assert.ok(call.thought.tokens <= 24, `the thought kept to the cap: ${call.thought.tokens} tokens`);
          if (call.thought.tokens === 24) assert.match(call.thought.cut ?? "", /cut at 24 tokens \(the recipe's/);
          for (const stop of format.thinkingStops) assert.ok(!call.thought.text.includes(stop), `no ${stop}`);
          if (call.kind === "call") {
            assert.ok(["read_file", "finish"].includes(call.name), call.name);
            assert.equal(typeof JSON.parse(call.argsText), "object");
          } else assert.match(call.reason, /did not fit|cut off|not one of your tools/);
          await calls.answer(JSON.stringify({ error: "not run in this test" }));
        }
        assert.ok(streamedTokens > 0, "the thoughts streamed");
      } finally {
        await swarm.dispose();
      }
    });
  });
});
