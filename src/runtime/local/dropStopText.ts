// Free text that ended at a stop string (the model closing its thought or starting a call in its own syntax)
// keeps only the text before the stop in the agent's context: the tokens that spelled the stop are erased from
// llama.cpp and from the ledger, so the family's own call prefix, read next, is in the context exactly once and
// the context is what the chat template renders for the same turn.
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import { keptBeforeStop } from "../keptBeforeStop";
import type { SwarmSequence } from "./swarmSequence";

/**
 * After a generation of `tokens` that stopped at character `textEnd` of their text: the sequence keeps the tokens
 * that spell the text before it (a token that straddles the stop is re-spelled from its text) and drops the rest.
 * Returns the tokens the agent's context now holds of that generation.
 */
export async function dropStopText(slot: SwarmSequence, tokens: readonly Token[], textEnd: number): Promise<Token[]> {
  const { kept, rest, tokens: result } = keptBeforeStop(slot.shared.model, tokens, textEnd);
  const { ledger } = slot.shared;
  const all = slot.tokens;
  const decoded = slot.sequence.contextTokens.length;
  const keepLength = all.length - tokens.length + kept;
  if (keepLength < decoded) {
    await slot.sequence.eraseContextTokenRanges([{ start: keepLength, end: decoded }]);
    ledger.truncate(slot.id, keepLength);
    slot.pending = rest;
  } else {
    slot.pending = [...all.slice(decoded, keepLength), ...rest];
  }
  return result;
}
