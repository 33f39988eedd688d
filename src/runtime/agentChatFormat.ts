// How an agent's conversation looks to the model, in the model's own chat template and function-calling
// syntax. node-llama-cpp's chat wrapper (the one the model resolves to) renders a sample history (system with
// the tools, one user turn, a model turn with two calls in separate chunks and their results) with marker
// words in it; cutting that rendering at the markers (src/runtime/chatFormatPieces.ts) gives the exact pieces
// between which an agent's own text goes:
//
//   [trunk: system + tools + user header] <user text> [open: user close + model header + call prefix]
//   <name> [params prefix] <params JSON> [after-call: call suffix + result prefix] <result JSON>
//   [next-call: result suffix + model header + call prefix] <name> ...
//
// So the trunk is shared by every agent byte for byte, and each call an agent makes is rendered the way the
// model was trained to make it: Qwen's <tool_call> JSON, Llama 3's results in an ipython turn, Gemma 4's
// result prefix that repeats the function's name, Mistral's [TOOL_CALLS]name[ARGS]. A template whose
// rendering lacks a piece is refused with what was missing and which families are known to work.
import type { LlamaTextJSON, Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import {
  marks,
  RenderedSample,
  replaceInPiece,
  unescapeQuotesAround,
  unquoteAround,
  type Item,
} from "./chatFormatPieces";
import type { SwarmModel } from "./loadModel";
import { loadNodeLlamaCpp } from "./nodeLlamaCpp";
import { SwarmRuntimeError } from "./runtimeErrors";

export interface ToolDoc {
  name: string;
  description: string;
  /** JSON schema of the arguments (e.g. `z.toJSONSchema(schema)`). */
  jsonSchema: object;
}

type FunctionDocs = Record<string, { description: string; params: never }>;

/** The pieces of one family's format, as rendered items (tokenized once, except where a call's name goes in). */
interface FormatPieces {
  readonly trunk: Item[];
  readonly open: Item[];
  readonly paramsPrefix: Item[];
  /** Call suffix and result prefix; may repeat the call's name (as `marks.name1`). */
  readonly afterCall: Item[];
  readonly nextCall: Item[];
  /** The template encodes a result as a JSON string (Mistral): the agent's JSON goes in escaped. */
  readonly resultInJsonString: boolean;
}

async function renderPieces(model: SwarmModel, systemText: string, functions: FunctionDocs) {
  const { resolveChatWrapper } = await loadNodeLlamaCpp();
  const wrapper = resolveChatWrapper(model.model);
  const sampleDocs: FunctionDocs = {
    ...functions,
    [marks.name1]: { description: "", params: { type: "object" } as never },
    [marks.name2]: { description: "", params: { type: "object" } as never },
  };
  const sample = wrapper.generateContextState({
    chatHistory: [
      { type: "system", text: systemText },
      { type: "user", text: marks.user },
      {
        type: "model",
        response: [
          { type: "functionCall", name: marks.name1, params: marks.params1, result: marks.result1 },
          {
            type: "functionCall",
            name: marks.name2,
            params: marks.params2,
            result: marks.result2,
            startsNewChunk: true,
          },
        ],
      },
    ],
    availableFunctions: sampleDocs,
  });
  const rendered = new RenderedSample(sample.contextText.toJSON() as Item[]);
  // The trunk is rendered again with only the real tools documented.
  const trunkState = wrapper.generateContextState({
    chatHistory: [
      { type: "system", text: systemText },
      { type: "user", text: marks.user },
      { type: "model", response: [] },
    ],
    availableFunctions: functions,
  });
  const trunk = new RenderedSample(trunkState.contextText.toJSON() as Item[]).before("user");
  const [paramsPrefix, afterParams] = unquoteAround(
    rendered.between("name1", "params1"),
    rendered.between("params1", "result1", ["name1"]),
  );
  const [afterEscaped, nextEscaped, resultInJsonString] = unescapeQuotesAround(
    afterParams,
    rendered.between("result1", "name2"),
  );
  const [afterCall, nextCall] = resultInJsonString
    ? [afterEscaped, nextEscaped]
    : unquoteAround(afterEscaped, nextEscaped);
  const open = rendered.between("user", "name1");
  const pieces: FormatPieces = { trunk, open, paramsPrefix, afterCall, nextCall, resultInJsonString };
  return { wrapperName: wrapper.wrapperName, pieces };
}

export class AgentChatFormat {
  private constructor(
    private readonly model: SwarmModel,
    private readonly toTokens: (items: Item[]) => Token[],
    /** node-llama-cpp's name of the chat wrapper the model resolved to (e.g. "Qwen", "JinjaTemplate"). */
    readonly wrapperName: string,
    /** Shared by every agent: system text, tool docs, the user turn's header. */
    readonly trunkTokens: Token[],
    private readonly pieces: FormatPieces,
    private readonly open: Token[],
    private readonly paramsPrefix: Token[],
    private readonly nextCall: Token[],
  ) {}

  static async create(model: SwarmModel, systemText: string, tools: readonly ToolDoc[]): Promise<AgentChatFormat> {
    if (tools.length === 0) throw new SwarmRuntimeError("invalid-request", "An agent needs at least one tool.");
    const { LlamaText } = await loadNodeLlamaCpp();
    const functions: FunctionDocs = Object.fromEntries(
      tools.map((t) => [t.name, { description: t.description, params: t.jsonSchema as never }]),
    );
    const { wrapperName, pieces } = await renderPieces(model, systemText, functions);
    const toTokens = (items: Item[]) => LlamaText.fromJSON(items as LlamaTextJSON).tokenize(model.model.tokenizer);
    // The context adds the BOS token itself.
    const trunkItems = pieces.trunk.filter(
      (item, i) => !(i === 0 && typeof item !== "string" && item.type === "specialToken" && item.value === "BOS"),
    );
    return new AgentChatFormat(
      model,
      toTokens,
      wrapperName,
      toTokens(trunkItems),
      pieces,
      toTokens(pieces.open),
      toTokens(pieces.paramsPrefix),
      toTokens(pieces.nextCall),
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

  /**
   * After a call's arguments: the call's end, the result in the family's own result turn, then the prefix of the
   * agent's next call. `callName` is the tool that was called (some families repeat it before the result).
   */
  resultTokens(resultJson: string, callName: string): Token[] {
    const afterCall = this.toTokens(replaceInPiece(this.pieces.afterCall, marks.name1, callName));
    const text = this.pieces.resultInJsonString ? JSON.stringify(resultJson).slice(1, -1) : resultJson;
    return [...afterCall, ...this.model.tokenize(text), ...this.nextCall];
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
