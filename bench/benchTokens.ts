// The token streams every mode is fed: one trunk of P tokens and, per agent, T forced tokens. Forcing makes
// each agent generate exactly T tokens in every mode (no early end of text), so the modes do the same work.

/** The part of a model the benchmark needs to make its tokens. */
export interface BenchTokenizer {
  tokenize(text: string): readonly number[];
  readonly bos: number | null;
}

// Plain prose: with stories260K's trained vocabulary it tokenizes like real text; with a byte vocabulary it is bytes.
const prose =
  "The team met in the small room by the river. Each of them had read the same notes, the same plan and the " +
  "same list of open questions, and each took one question away to work on alone. By evening they came back " +
  "with answers, some short and some long, and wrote them on the board for the others to check. ";

/** P tokens: BOS (when the model has one), then the prose repeated until the trunk is full. */
export function trunkTokens(tokenizer: BenchTokenizer, length: number): number[] {
  const body = tokenizer.tokenize(prose);
  if (body.length === 0) throw new Error("bench: the model tokenized the trunk text to nothing");
  const out: number[] = tokenizer.bos === null ? [] : [tokenizer.bos];
  while (out.length < length) out.push(...body.slice(0, length - out.length));
  return out;
}

/** T tokens for agent `agent`: a window into the prose that starts somewhere different for each agent. */
export function forcedTokens(tokenizer: BenchTokenizer, agent: number, length: number): number[] {
  const body = tokenizer.tokenize(prose);
  const out: number[] = [];
  for (let i = 0; out.length < length; i++) out.push(body[(agent * 7 + i) % body.length]);
  return out;
}
