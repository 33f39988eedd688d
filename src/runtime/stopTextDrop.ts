// Free text that ended at a stop string (the model closing its thought or starting a call in its own syntax)
// keeps only the text before the stop in the agent's context: the tokens that spelled the stop are erased from
// llama.cpp and from the ledger, so the family's own call prefix, read next, is in the context exactly once and
// the context is what the chat template renders for the same turn.
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { SwarmModel } from "./loadModel";
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

/**
 * Of `tokens`, which stopped at character `textEnd` of their text: how many leading ones spell text before the
 * stop (`kept`), the re-spelled rest of a token that straddles it (`rest`), and the tokens the context keeps.
 * The remote engine uses it on its own token list; the local one also erases the dropped cells.
 */
export function keptBeforeStop(model: SwarmModel, tokens: readonly Token[], textEnd: number) {
  // Spelled with special tokens, as the stop was looked for (src/runtime/generationStops.ts).
  const spell = (some: readonly Token[]) => model.model.detokenize(some, true);
  const text = spell(tokens).slice(0, textEnd);
  let kept = tokens.length;
  let keptText = spell(tokens);
  while (kept > 0 && (keptText.length > text.length || !text.startsWith(keptText))) {
    kept--;
    keptText = spell(tokens.slice(0, kept));
  }
  const rest = text.length > keptText.length ? model.tokenize(text.slice(keptText.length)) : [];
  return { kept, rest, tokens: [...tokens.slice(0, kept), ...rest] };
}
