// The trunk's tokens, the same for every engine: where BOS goes, and how much of a new trunk an old one shares.
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { SwarmModel } from "./loadModel";

/** The trunk starts with BOS when the model wants one, unless the caller's tokens already begin with it. */
export function withTrunkBos(model: SwarmModel, tokens: Token[]): Token[] {
  const { bos, shouldPrependBosToken } = model.model.tokens;
  return bos !== null && shouldPrependBosToken && tokens[0] !== bos ? [bos, ...tokens] : tokens;
}

/** How many leading tokens `a` and `b` share. */
export function commonPrefixLength(a: readonly Token[], b: readonly Token[]): number {
  const end = Math.min(a.length, b.length);
  let at = 0;
  while (at < end && a[at] === b[at]) at++;
  return at;
}
