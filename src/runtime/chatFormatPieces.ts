// The pieces of a model family's own chat format, found by rendering a sample conversation with node-llama-cpp's
// chat wrapper (the one the model resolves to) and cutting the rendering at marker strings. Each marker is found
// on its own, wherever the template put it, and every piece is checked to hold no other marker, so the mapping
// assumes no call order; calls are rendered one per chunk (`startsNewChunk`), the way an agent makes them.
// Markers are plain ASCII words: a template's `tojson` would escape anything else.
import type { LlamaTextJSON } from "node-llama-cpp" with { "resolution-mode": "import" };
import { SwarmRuntimeError } from "./runtimeErrors";

export type Item = Exclude<LlamaTextJSON, string>[number] | string;

export const marks = {
  user: "sbmarkusertext",
  name1: "sbfirstcall",
  name2: "sbsecondcall",
  params1: "sbmarkparamsone",
  params2: "sbmarkparamstwo",
  result1: "sbmarkresultone",
  result2: "sbmarkresulttwo",
  think1: "sbmarkthinkone",
  think2: "sbmarkthinktwo",
} as const;
export type Mark = keyof typeof marks;

/** What each marker stands for, for the refusal's message. */
const markMeaning: Record<Mark, string> = {
  user: "the user's text",
  name1: "a call's function name",
  name2: "a second call's function name",
  params1: "a call's arguments",
  params2: "a second call's arguments",
  result1: "a call's result",
  result2: "a second call's result",
  think1: "text before a call",
  think2: "text before a second call",
};

/** Families whose templates are tested end to end (test/runtime/families/). */
export const knownFamilies =
  "Qwen2.5-Instruct, Qwen3, Qwen3-Coder, Devstral / Mistral, Llama 3.2-Instruct, Gemma 4 and ChatML models (SmolLM3)";

export function refusal(what: string): SwarmRuntimeError {
  return new SwarmRuntimeError(
    "invalid-request",
    `The model's chat template cannot be mapped to agent turns: ${what}. ` +
      `Models of these families are known to work: ${knownFamilies}; pick one of them.`,
  );
}

/** Where a marker sits: the item and the offset in its text. */
interface Position {
  readonly item: number;
  readonly at: number;
}

export function textOf(item: Item): string | undefined {
  if (typeof item === "string") return item;
  return item.type === "specialTokensText" ? item.value : undefined;
}

function withText(item: Item, text: string): Item {
  return typeof item === "string" ? text : ({ ...item, value: text } as Item);
}

export class RenderedSample {
  private readonly positions = new Map<Mark, Position>();

  constructor(private readonly items: readonly Item[]) {
    // The tool docs in the system text name the sample tools too: the turns' markers are looked for after the user's.
    const user = this.find("user", { item: 0, at: 0 });
    for (const mark of Object.keys(marks) as Mark[]) if (mark !== "user") this.find(mark, user ?? { item: 0, at: 0 });
  }

  private find(mark: Mark, from: Position): Position | undefined {
    for (let i = from.item; i < this.items.length; i++) {
      const at = textOf(this.items[i]!)?.indexOf(marks[mark], i === from.item ? from.at : 0) ?? -1;
      if (at >= 0) {
        this.positions.set(mark, { item: i, at });
        return { item: i, at };
      }
    }
    return undefined;
  }

  has(mark: Mark): boolean {
    return this.positions.has(mark);
  }

  private position(mark: Mark): Position {
    const found = this.positions.get(mark);
    if (found === undefined) throw refusal(`it does not render ${markMeaning[mark]}`);
    return found;
  }

  /** Items from the start up to a marker. */
  before(mark: Mark): Item[] {
    const end = this.position(mark);
    return this.slice({ item: 0, at: 0 }, end);
  }

  /**
   * Items between the end of marker `from` and the start of marker `to`, with no other marker in between.
   * A marker rendered as a JSON string (`"MARK"`) has its quotes taken off the joins: the agent's own JSON goes there.
   */
  between(from: Mark, to: Mark, allowed: readonly Mark[] = []): Item[] {
    const start = this.position(from);
    const end = this.position(to);
    const startAfter = { item: start.item, at: start.at + marks[from].length };
    if (end.item < startAfter.item || (end.item === startAfter.item && end.at < startAfter.at)) {
      throw refusal(`it renders ${markMeaning[to]} before ${markMeaning[from]}`);
    }
    const piece = this.slice(startAfter, end);
    for (const other of Object.keys(marks) as Mark[]) {
      if (allowed.includes(other)) continue;
      if (piece.some((item) => textOf(item)?.includes(marks[other]) === true)) {
        throw refusal(`it puts something else between ${markMeaning[from]} and ${markMeaning[to]}`);
      }
    }
    return piece;
  }

  private slice(start: Position, end: Position): Item[] {
    const out: Item[] = [];
    for (let i = start.item; i <= end.item && i < this.items.length; i++) {
      const item = this.items[i]!;
      const text = textOf(item);
      if (text === undefined) {
        if (i < end.item || (i === end.item && end.at > 0)) out.push(item);
        continue;
      }
      const from = i === start.item ? start.at : 0;
      const to = i === end.item ? end.at : text.length;
      if (to > from) out.push(withText(item, text.slice(from, to)));
    }
    return out;
  }
}

/**
 * A marker rendered as a JSON string (`"MARK"`) leaves a quote at the end of the piece before it and at the start
 * of the piece after it: the agent's own JSON goes there, so both quotes come off (and only when both are there).
 */
export function unquoteAround(before: Item[], after: Item[]): [Item[], Item[]] {
  const last = before.at(-1);
  const first = after[0];
  const lastText = last === undefined ? undefined : textOf(last);
  const firstText = first === undefined ? undefined : textOf(first);
  if (lastText?.endsWith('"') !== true || firstText?.startsWith('"') !== true) return [before, after];
  return [
    [...before.slice(0, -1), withText(last!, lastText.slice(0, -1))],
    [withText(first!, firstText.slice(1)), ...after.slice(1)],
  ];
}

/**
 * A template that JSON-encodes a result the wrapper already encoded (Mistral's `tojson` of a string) renders a
 * marker as `"\"MARK\""`: the escaped quotes come off and the agent's JSON goes in as the body of a JSON string.
 */
export function unescapeQuotesAround(before: Item[], after: Item[]): [Item[], Item[], boolean] {
  const last = before.at(-1);
  const first = after[0];
  const lastText = last === undefined ? undefined : textOf(last);
  const firstText = first === undefined ? undefined : textOf(first);
  if (lastText?.endsWith('\\"') !== true || firstText?.startsWith('\\"') !== true) return [before, after, false];
  return [
    [...before.slice(0, -1), withText(last!, lastText.slice(0, -2))],
    [withText(first!, firstText.slice(2)), ...after.slice(1)],
    true,
  ];
}

/** Replaces every occurrence of `from` in the texts of a piece (a template that repeats the call's name). */
export function replaceInPiece(piece: readonly Item[], from: string, to: string): Item[] {
  return piece.map((item) => {
    const text = textOf(item);
    return text === undefined || !text.includes(from) ? item : withText(item, text.split(from).join(to));
  });
}

export function pieceMentions(piece: readonly Item[], text: string): boolean {
  return piece.some((item) => textOf(item)?.includes(text) === true);
}
