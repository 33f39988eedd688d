// The text of a generation that grows by one token per step. The stop check and the text stream need the whole
// text after every token; detokenizing every token again each step made a turn of T tokens cost O(T^2) (at
// T = 1,024 and 16 agents, ~16,000 tokens detokenized per step). Here the text of an early part is kept once it is
// known to be final, and only the tokens after it are spelled, with a few tokens before them as context (what
// node-llama-cpp's own incremental detokenizing does).
//
// Why that is the same text as spelling everything: llama.cpp spells a token list as the concatenation of each
// token's bytes (only the first token of a list may lose its leading space), decoded once as UTF-8. The context
// tokens make the tail's first token a non-first one, and the kept part ends on a character boundary (its text
// does not end in U+FFFD, which a cut through a character would leave), so decoding the parts apart gives the
// same characters as decoding them together. Where the context's own text is not a prefix of context + tail, the
// whole list is spelled instead.
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };

/** How a model spells tokens: the stock detokenizer of the same model, with the same special-token setting. */
export type Spell = (tokens: readonly Token[]) => string;

/** Tokens before the tail spelled with it, so that the tail's first token is not spelled as a list's first. */
const contextTokens = 4;
/** The tail is folded into the kept text once it is this long; the last few tokens stay in the tail. */
const foldAt = 48;
const keepInTail = 8;

export class GrowingSpelling {
  private keptTokens = 0;
  private keptText = "";
  /** the kept tokens themselves: a caller may rewrite earlier tokens (the remote engine re-tokenizes a stream) */
  private kept: Token[] = [];

  constructor(private readonly spell: Spell) {}

  /** The text of `tokens`; when they do not begin with the kept tokens it starts over. */
  text(tokens: readonly Token[]): string {
    if (!this.stillKept(tokens)) this.startOver();
    const text = this.keptText + this.tail(tokens, this.keptTokens, tokens.length);
    if (tokens.length - this.keptTokens >= foldAt) this.fold(tokens, text);
    return text;
  }

  /** Comparing ids costs far less than spelling them again. */
  private stillKept(tokens: readonly Token[]): boolean {
    if (tokens.length < this.keptTokens) return false;
    for (let i = 0; i < this.keptTokens; i++) if (tokens[i] !== this.kept[i]) return false;
    return true;
  }

  private startOver(): void {
    this.keptTokens = 0;
    this.keptText = "";
    this.kept = [];
  }

  /** The text that tokens[from, to) add after tokens[0, from). */
  private tail(tokens: readonly Token[], from: number, to: number): string {
    if (from === 0) return this.spell(tokens.slice(0, to));
    const context = tokens.slice(Math.max(0, from - contextTokens), from);
    const contextText = this.spell(context);
    const both = this.spell(tokens.slice(from - context.length, to));
    if (both.startsWith(contextText)) return both.slice(contextText.length);
    // The context spells differently before the tail: no safe cut here, spell the whole list.
    return this.spell(tokens.slice(0, to)).slice(this.keptText.length);
  }

  /** Keeps all but the last few tokens when the text up to them is final (ends on a whole character). */
  private fold(tokens: readonly Token[], text: string): void {
    const end = tokens.length - keepInTail;
    const keptText = this.keptText + this.tail(tokens, this.keptTokens, end);
    if (keptText.endsWith("\uFFFD") || !text.startsWith(keptText)) return;
    this.keptTokens = end;
    this.keptText = keptText;
    this.kept = tokens.slice(0, end);
  }
}
