// One family's agent turn, cut into pieces: node-llama-cpp's chat wrapper renders a sample model turn (two calls
// with marker words for names, arguments and results, each call in its own chunk, as an agent makes them) and the
// rendering is cut at the markers (src/runtime/chatFormatPieces.ts).
//
// A turn with thinking puts a thought segment (node-llama-cpp's `segment` of type "thought") before each call. A
// wrapper that knows thinking renders it its way (Qwen3's <think>...</think>, Gemma 4's thought channel, SmolLM3's
// <think>); one that does not renders the text plainly before the call (Qwen2.5, Mistral's text before
// [TOOL_CALLS], Llama 3.2's text message before the call's own message). Templates may render the rest of a turn
// differently when it has text (Mistral then writes a result as JSON, not as a JSON string), so a thinking turn
// takes all its pieces from the thinking sample:
//
//   [open: user close + model header (+ thought opener)] (<text> [to-call: thought close + call prefix])
//   <name> [params prefix] <params JSON> [after-call] <result JSON> [next: result suffix + header ...] ...
//
// The stop strings that end free text are the landmarks of the to-call piece: its tags (`</think>`,
// `<tool_call>`, `[TOOL_CALLS]`, `<|eot_id|>`, `<channel|>`) and the call syntax's first word after them
// (`{"name":`, `<function=`, `||call:`).
import type { ChatWrapper } from "node-llama-cpp" with { "resolution-mode": "import" };
import { marks, RenderedSample, textOf, unescapeQuotesAround, unquoteAround, type Item } from "./chatFormatPieces";

export type FunctionDocs = Record<string, { description: string; params: never }>;

export interface TurnPieces {
  /** The user turn's close and the model's header, up to the call (or, thinking, up to the text). */
  readonly open: Item[];
  /** Thinking only: after the text, the thought's close (if any) and the call prefix. */
  readonly toCall?: Item[];
  readonly paramsPrefix: Item[];
  /** Call suffix and result prefix; may repeat the call's name (as `marks.name1`). */
  readonly afterCall: Item[];
  /** After a result: its suffix and the model's header, up to the next call (or its text). */
  readonly next: Item[];
  /** The template encodes a result as a JSON string (Mistral): the agent's JSON goes in escaped. */
  readonly resultInJsonString: boolean;
}

function renderSample(wrapper: ChatWrapper, systemText: string, sampleDocs: FunctionDocs, thinking: boolean) {
  const thought = (text: string) => ({ type: "segment" as const, segmentType: "thought" as const, text, ended: true });
  const sample = wrapper.generateContextState({
    chatHistory: [
      { type: "system", text: systemText },
      { type: "user", text: marks.user },
      {
        type: "model",
        response: [
          ...(thinking ? [thought(marks.think1)] : []),
          { type: "functionCall", name: marks.name1, params: marks.params1, result: marks.result1 },
          ...(thinking ? [thought(marks.think2)] : []),
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
  return new RenderedSample(sample.contextText.toJSON() as Item[]);
}

/** The pieces of a turn without (or with) thinking; a template that cannot be mapped is refused (see refusal). */
export function renderTurnPieces(
  wrapper: ChatWrapper,
  systemText: string,
  sampleDocs: FunctionDocs,
  thinking: boolean,
): TurnPieces {
  const rendered = renderSample(wrapper, systemText, sampleDocs, thinking);
  const [first, second] = thinking ? (["think1", "think2"] as const) : (["name1", "name2"] as const);
  const [paramsPrefix, afterParams] = unquoteAround(
    rendered.between("name1", "params1"),
    rendered.between("params1", "result1", ["name1"]),
  );
  const [afterEscaped, nextEscaped, resultInJsonString] = unescapeQuotesAround(
    afterParams,
    rendered.between("result1", second),
  );
  const [afterCall, next] = resultInJsonString ? [afterEscaped, nextEscaped] : unquoteAround(afterEscaped, nextEscaped);
  return {
    open: rendered.between("user", first),
    ...(thinking ? { toCall: rendered.between("think1", "name1") } : {}),
    paramsPrefix,
    afterCall,
    next,
    resultInJsonString,
  };
}

export function pieceText(piece: readonly Item[]): string {
  return piece.map((item) => textOf(item) ?? "").join("");
}

/** The to-call piece's landmarks (see the file comment). */
export function stopStrings(toCall: readonly Item[]): string[] {
  const text = pieceText(toCall);
  const tags = text.match(/<[^<>\s]+>|\[[A-Z_]+\]/g) ?? [];
  const lastTag = tags.at(-1);
  const afterTags = lastTag === undefined ? text : text.slice(text.lastIndexOf(lastTag) + lastTag.length);
  const word = afterTags.trim().split(/\s+/)[0] ?? "";
  // A word starting with a letter ("call:") would stop ordinary prose; call syntax starts with a sign.
  const callWord = word.length >= 2 && !/^[A-Za-z0-9]/.test(word) ? [word] : [];
  return [...new Set([...tags, ...callWord])];
}
