// How an agent's conversation looks to the model, in the model's own chat template and function-calling
// syntax. node-llama-cpp's chat wrapper renders a sample history (system with the tools, one user turn,
// a model turn with two function calls and their results) with marker strings in it; splitting that
// rendering at the markers gives the exact pieces between which an agent's own text goes:
//
//   [trunk: system + tools + user header] <user text> [open: user close + model header + call prefix]
//   <name> [params prefix] <params JSON> [after-call: call suffix + result prefix] <result JSON>
//   [next-call: result suffix + call prefix] <name> ...
//
// So the trunk is shared by every agent byte for byte, and each call an agent makes is rendered the way the
// model was trained to make it. A template whose rendering does not contain the markers in order is refused.
import type { LlamaTextJSON, Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { SwarmModel } from "./loadModel";
import { loadNodeLlamaCpp } from "./nodeLlamaCpp";
import { SwarmRuntimeError } from "./runtimeErrors";

export interface ToolDoc {
  name: string;
  description: string;
  /** JSON schema of the arguments (e.g. `z.toJSONSchema(schema)`). */
  jsonSchema: object;
}

type Item = Exclude<LlamaTextJSON, string>[number] | string;

const marks = {
  user: "\u2063SBUSER\u2063",
  name1: "sbfirstcall",
  params1: "\u2063SBPARAMS1\u2063",
  result1: "\u2063SBRESULT1\u2063",
  name2: "sbsecondcall",
};

/** Splits a rendered text (as JSON items) at each marker in turn; every marker must be found, in order. */
function splitAtMarkers(items: Item[], markers: string[]): Item[][] {
  const pieces: Item[][] = [[]];
  let queue = [...markers];
  for (const item of items) {
    if (typeof item !== "string") {
      pieces[pieces.length - 1]!.push(item);
      continue;
    }
    let rest = item;
    while (queue.length > 0 && rest.includes(queue[0]!)) {
      const at = rest.indexOf(queue[0]!);
      if (at > 0) pieces[pieces.length - 1]!.push(rest.slice(0, at));
      pieces.push([]);
      rest = rest.slice(at + queue[0]!.length);
      queue = queue.slice(1);
    }
    if (rest.length > 0) pieces[pieces.length - 1]!.push(rest);
  }
  if (queue.length > 0) {
    throw new SwarmRuntimeError(
      "invalid-request",
      `The model's chat template did not render the conversation as expected (missing ${JSON.stringify(queue[0])}); ` +
        "pick a model with a supported chat template.",
    );
  }
  return pieces;
}

/** The rendered JSON of a quoted marker (`"MARK"`) is the marker with its quotes: strip them from the joins. */
function stripQuote(piece: Item[], side: "start" | "end"): Item[] {
  const copy = [...piece];
  const index = side === "start" ? 0 : copy.length - 1;
  const item = copy[index];
  if (typeof item === "string") {
    copy[index] = side === "start" ? item.replace(/^"/, "") : item.replace(/"$/, "");
  }
  return copy;
}

export class AgentChatFormat {
  private constructor(
    private readonly model: SwarmModel,
    private readonly toTokens: (items: Item[]) => Token[],
    /** Shared by every agent: system text, tool docs, the user turn's header. */
    readonly trunkTokens: Token[],
    private readonly open: Token[],
    private readonly paramsPrefix: Token[],
    private readonly afterCall: Token[],
    private readonly nextCall: Token[],
  ) {}

  static async create(model: SwarmModel, systemText: string, tools: readonly ToolDoc[]): Promise<AgentChatFormat> {
    if (tools.length === 0) throw new SwarmRuntimeError("invalid-request", "An agent needs at least one tool.");
    const { resolveChatWrapper, LlamaText } = await loadNodeLlamaCpp();
    const wrapper = resolveChatWrapper(model.model);
    const functions = Object.fromEntries(
      tools.map((t) => [t.name, { description: t.description, params: t.jsonSchema as never }]),
    );
    const docs = {
      ...functions,
      [marks.name1]: { description: "", params: { type: "object" } as never },
      [marks.name2]: { description: "", params: { type: "object" } as never },
    };
    const state = wrapper.generateContextState({
      chatHistory: [
        { type: "system", text: systemText },
        { type: "user", text: marks.user },
        {
          type: "model",
          response: [
            { type: "functionCall", name: marks.name1, params: marks.params1, result: marks.result1 },
            { type: "functionCall", name: marks.name2, params: {}, result: "" },
          ],
        },
      ],
      availableFunctions: docs,
    });
    // The sample tools are documented too (so the markers render as calls); the trunk is rendered again below
    // with only the real tools.
    const pieces = splitAtMarkers(state.contextText.toJSON() as Item[], [
      marks.user,
      marks.name1,
      marks.params1,
      marks.result1,
      marks.name2,
    ]);
    const trunkState = wrapper.generateContextState({
      chatHistory: [
        { type: "system", text: systemText },
        { type: "user", text: marks.user },
        { type: "model", response: [] },
      ],
      availableFunctions: functions,
    });
    const [trunk] = splitAtMarkers(trunkState.contextText.toJSON() as Item[], [marks.user]);
    const toTokens = (items: Item[]) => LlamaText.fromJSON(items as LlamaTextJSON).tokenize(model.model.tokenizer);
    const trunkItems = trunk!.filter(
      (item, i) => !(i === 0 && typeof item !== "string" && item.type === "specialToken" && item.value === "BOS"),
    );
    return new AgentChatFormat(
      model,
      toTokens,
      toTokens(trunkItems),
      toTokens(pieces[1]!),
      toTokens(stripQuote(pieces[2]!, "end")),
      toTokens(stripQuote(stripQuote(pieces[3]!, "start"), "end")),
      toTokens(stripQuote(pieces[4]!, "start")),
    );
  }

  /** The agent's own brief, closing the user turn and opening its first call. */
  openingTokens(userText: string): Token[] {
    return [...this.model.tokenize(userText), ...this.open];
  }

  /** Between a tool's name and its arguments. */
  paramsPrefixTokens(): Token[] {
    return [...this.paramsPrefix];
  }

  /** After a call's arguments: the result, then the prefix of the agent's next call. */
  resultTokens(resultJson: string): Token[] {
    return [...this.afterCall, ...this.model.tokenize(resultJson), ...this.nextCall];
  }

  /** A GBNF grammar that admits exactly one of the tool names. */
  static nameGrammar(names: readonly string[]): string {
    const alternatives = names.map((n) => JSON.stringify(n)).join(" | ");
    return `root ::= ${alternatives}`;
  }

  /** Tokens of a text (used to script an agent's call in deterministic runs). */
  tokenize(text: string): Token[] {
    return this.toTokens([text]);
  }
}
