// Free text that ended at a stop string keeps only the text before the stop in the agent's context, so the
// family's own call prefix, read next, is in the context exactly once. This is the part every engine shares:
// which tokens spell the text before the stop. The local engine also erases the dropped cells
// (local/dropStopText.ts).
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { SwarmModel } from "./loadModel";

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
