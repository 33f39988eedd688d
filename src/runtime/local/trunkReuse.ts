// The trunk kept across swarms: a new swarm's trunk (charter, tools, roster, summary, goal) is mostly the last
// one's, so the context that held it rewrites only what differs. The longest common prefix stays decoded (its
// cells are reused as they are: same tokens at the same positions give the same keys and values); the old tokens
// after it are erased from llama.cpp and from the ledger; only the new rest is decoded.
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { TrunkReuse } from "../port/engineShapes";
import type { SwarmSequence } from "./swarmSequence";
import { commonPrefixLength } from "../trunkTokens";

/** Makes `trunk` hold exactly `tokens` (BOS already in place), decoding only what differs from what it holds. */
export async function rewriteTrunk(trunk: SwarmSequence, tokens: readonly Token[]): Promise<TrunkReuse> {
  const decoded = trunk.sequence.contextTokens;
  // At least the last token must stay pending: the first agent step decodes it (see swarmSequence.ts).
  const keep = Math.min(commonPrefixLength(decoded, tokens), Math.max(0, tokens.length - 1));
  if (keep < decoded.length) {
    await trunk.sequence.eraseContextTokenRanges([{ start: keep, end: decoded.length }]);
    trunk.shared.ledger.truncate(trunk.id, keep);
  }
  trunk.pending = [];
  await trunk.appendTokens(tokens.slice(keep));
  return { reusedTokens: keep, decodedTokens: Math.max(0, tokens.length - 1 - keep) };
}
