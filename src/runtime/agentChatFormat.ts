// How an agent's conversation looks to the model, in the model's own chat template and function-calling
// syntax. node-llama-cpp's chat wrapper (the one the model resolves to) renders a sample history (system with
// the tools, one user turn, a model turn with two calls in separate chunks and their results) with marker
// words in it; cutting that rendering at the markers (src/runtime/chatFormatPieces.ts) gives the exact pieces
// between which an agent's own text goes:
//
//   [trunk: system + tools + user header + the swarm's part of the trunk text] <user text>
//   [open: user close + model header + call prefix]
//   <name> [params prefix] <params JSON> [after-call: call suffix + result prefix] <result JSON>
//   [next-call: result suffix + model header + call prefix] <name> ...
//
// An agent that thinks writes free text first, in its family's own way (src/runtime/turnPieces.ts): its
// opening and next-call pieces then stop at the model's header (and thought opener), and the call prefix follows
// its text.
//
// So the trunk is shared by every agent byte for byte, and each call an agent makes is rendered the way the
// model was trained to make it: Qwen's <tool_call> JSON, Llama 3's results in an ipython turn, Gemma 4's
// result prefix that repeats the function's name, Mistral's [TOOL_CALLS]name[ARGS]. A template whose
// rendering lacks a piece is refused with what was missing and which families are known to work.
import type { LlamaTextJSON, Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import { marks, RenderedSample, replaceInPiece, type Item } from "./chatFormatPieces";
import type { SwarmModel } from "./loadModel";
import { loadNodeLlamaCpp } from "./nodeLlamaCpp";
import { SwarmRuntimeError } from "./runtimeErrors";
import { renderTurnPieces, stopStrings, type FunctionDocs, type TurnPieces } from "./turnPieces";

export interface ToolDoc {
  name: string;
  description: string;
  /** JSON schema of the arguments (e.g. `z.toJSONSchema(schema)`). */
  jsonSchema: object;
}

/** A turn's pieces as tokens (tokenized once, except where a call's name goes in). */
interface TurnTokens {
  readonly pieces: TurnPieces;
  readonly open: Token[];
  readonly paramsPrefix: Token[];
  readonly next: Token[];
  readonly toCall: Token[];
}

async function renderPieces(model: SwarmModel, systemText: string, functions: FunctionDocs) {
  const { resolveChatWrapper } = await loadNodeLlamaCpp();
  const wrapper = resolveChatWrapper(model.model);
  const sampleDocs: FunctionDocs = {
    ...functions,
    [marks.name1]: { description: "", params: { type: "object" } as never },
    [marks.name2]: { description: "", params: { type: "object" } as never },
  };
  const plain = renderTurnPieces(wrapper, systemText, sampleDocs, false);
  let thinking: TurnPieces | undefined;
  try {
    thinking = renderTurnPieces(wrapper, systemText, sampleDocs, true);
  } catch {
    // The wrapper drops text before a call, or puts it where an agent's turn cannot: its agents do not think.
    thinking = undefined;
  }
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
  return { wrapperName: wrapper.wrapperName, trunk, plain, thinking };
}

/** A format's costly part: the template rendered (three times) and its pieces tokenized; the same for every swarm
 * on a loaded model with the same system text and tools. */
interface RenderedFormat {
  readonly wrapperName: string;
  /** System text, tool docs and the user turn's header (the context adds the BOS token itself). */
  readonly systemTokens: readonly Token[];
  readonly plain: TurnTokens;
  readonly thinking: (TurnTokens & { readonly stops: string[] }) | undefined;
}

async function renderFormat(
  model: SwarmModel,
  systemText: string,
  tools: readonly ToolDoc[],
  toTokens: (items: Item[]) => Token[],
): Promise<RenderedFormat> {
  const functions: FunctionDocs = Object.fromEntries(
    tools.map((t) => [t.name, { description: t.description, params: t.jsonSchema as never }]),
  );
  const { wrapperName, trunk, plain, thinking } = await renderPieces(model, systemText, functions);
  const turnTokens = (pieces: TurnPieces): TurnTokens => ({
    pieces,
    open: toTokens(pieces.open),
    paramsPrefix: toTokens(pieces.paramsPrefix),
    next: toTokens(pieces.next),
    toCall: toTokens(pieces.toCall ?? []),
  });
  const systemItems = trunk.filter(
    (item, i) => !(i === 0 && typeof item !== "string" && item.type === "specialToken" && item.value === "BOS"),
  );
  return {
    wrapperName,
    systemTokens: toTokens(systemItems),
    plain: turnTokens(plain),
    thinking: thinking && { ...turnTokens(thinking), stops: stopStrings(thinking.toCall ?? []) },
  };
}

/**
 * Rendered formats by loaded model, the latest few: a second swarm on a repository (same system text and tools)
 * takes the first's. Rendering and tokenizing a real model's trunk took 0.65-0.8 s on the bench's 0.5B-shape model
 * with Qwen2.5's template, in the worker's event loop, so every running agent's step waited for it too.
 */
const renderedFormats = new WeakMap<object, Map<string, Promise<RenderedFormat>>>();
const formatsKeptPerModel = 4;

function renderedFormat(
  model: SwarmModel,
  systemText: string,
  tools: readonly ToolDoc[],
  toTokens: (items: Item[]) => Token[],
): Promise<RenderedFormat> {
  let kept = renderedFormats.get(model.model);
  if (kept === undefined) renderedFormats.set(model.model, (kept = new Map()));
  const key = JSON.stringify([systemText, tools]);
  const made = kept.get(key) ?? renderFormat(model, systemText, tools, toTokens);
  // The most recent last; a failed rendering is not kept.
  kept.delete(key);
  kept.set(key, made);
  made.catch(() => kept.delete(key));
  if (kept.size > formatsKeptPerModel) kept.delete(kept.keys().next().value!);
  return made;
}

export class AgentChatFormat {
  private constructor(
    private readonly model: SwarmModel,
    private readonly toTokens: (items: Item[]) => Token[],
    /** node-llama-cpp's name of the chat wrapper the model resolved to (e.g. "Qwen", "JinjaTemplate"). */
    readonly wrapperName: string,
    /** Shared by every agent: system text, tool docs, the user turn's header and the swarm's part of the trunk. */
    readonly trunkTokens: Token[],
    private readonly plain: TurnTokens,
    /** Turns with free text before the call; absent when the family's format has no place for it. */
    private readonly thinking: (TurnTokens & { readonly stops: string[] }) | undefined,
  ) {}

  /**
   * `swarmText` (the swarm's own part of the trunk, core/trunkPrompt.ts) opens the user turn, after the tool docs
   * that the template writes after the system text: so a second swarm's trunk, whose system text and tools are the
   * same, forks the tool docs too, not only the system text.
   */
  static async create(
    model: SwarmModel,
    systemText: string,
    tools: readonly ToolDoc[],
    swarmText = "",
  ): Promise<AgentChatFormat> {
    if (tools.length === 0) throw new SwarmRuntimeError("invalid-request", "An agent needs at least one tool.");
    const { LlamaText } = await loadNodeLlamaCpp();
    const toTokens = (items: Item[]) => LlamaText.fromJSON(items as LlamaTextJSON).tokenize(model.model.tokenizer);
    const made = await renderedFormat(model, systemText, tools, toTokens);
    return new AgentChatFormat(
      model,
      toTokens,
      made.wrapperName,
      [...made.systemTokens, ...(swarmText === "" ? [] : model.tokenize(swarmText))],
      made.plain,
      made.thinking,
    );
  }

  /** Whether the family's format has a place for free text before a call (every tested family has). */
  get canThink(): boolean {
    return this.thinking !== undefined;
  }

  /** Texts that end an agent's free text: it is closing its thought or starting a call in its own syntax. */
  get thinkingStops(): readonly string[] {
    return this.thinking?.stops ?? [];
  }

  /** After the agent's free text: the thought's close (where the family has one) and the call prefix. */
  thinkingToCallTokens(): Token[] {
    return [...this.thinkingTurn().toCall];
  }

  private turn(think: boolean): TurnTokens {
    return think ? this.thinkingTurn() : this.plain;
  }

  private thinkingTurn() {
    if (this.thinking === undefined) {
      throw new SwarmRuntimeError(
        "invalid-request",
        `The ${this.wrapperName} chat format has no place for text before a call; run the agents without thinking.`,
      );
    }
    return this.thinking;
  }

  /** The agent's own brief, closing the user turn and opening its first call (or its text, when it thinks). */
  openingTokens(userText: string, think = false): Token[] {
    return [...this.model.tokenize(userText), ...this.turn(think).open];
  }

  /** Between a tool's name and its arguments (`thought`: the agent wrote text before this call). */
  paramsPrefixTokens(thought = false): Token[] {
    return [...this.turn(thought).paramsPrefix];
  }

  /**
   * After a call's arguments: the call's end, the result in the family's own result turn, then the prefix of the
   * agent's next call. `callName` is the tool that was called (some families repeat it before the result).
   * `thought`: the agent wrote text before this call; `thinkNext`: it writes text before its next one.
   */
  resultTokens(resultJson: string, callName: string, turns: { thought?: boolean; thinkNext?: boolean } = {}): Token[] {
    const { pieces } = this.turn(turns.thought === true);
    const afterCall = this.toTokens(replaceInPiece(pieces.afterCall, marks.name1, callName));
    const text = pieces.resultInJsonString ? JSON.stringify(resultJson).slice(1, -1) : resultJson;
    return [...afterCall, ...this.model.tokenize(text), ...this.turn(turns.thinkNext === true).next];
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
