// A second swarm's trunk on a pool another swarm uses: the start it shares with the live trunk is forked from it
// (`llama_memory_seq_cp` up to the end of the shared start: no decode, no new cell in shared-cells mode), and the
// ledger books the new trunk as a fork at that point, so only its differing rest is decoded and charged to it.
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { SwarmStats } from "../../protocol/runtime";
import type { PoolShare } from "./kvAdmission";
import { copySequenceState } from "./sequenceInternals";
import type { PoolTenant, SwarmPool } from "./swarmPool";
import type { SwarmSequence } from "./swarmSequence";

/**
 * Forks into `tenant`'s empty trunk the start `tokens` share with the closest live trunk of another tenant. At
 * least the last token stays to be decoded (it stays pending: see swarmSequence.ts); a busy source is not waited
 * for: the trunk is then decoded whole.
 */
export async function forkSharedStart(
  host: SwarmPool,
  tenant: PoolTenant,
  trunk: SwarmSequence,
  tokens: readonly Token[],
): Promise<void> {
  const source = host.bestTrunkSource(tokens, tenant);
  const upTo = Math.min(source?.shared ?? 0, tokens.length - 1);
  if (source === undefined || upTo <= 0) return;
  await source.tenant.lendTrunk((from) => forkTrunkStart(trunk, from, upTo)).catch(() => undefined);
}

/** Makes the empty `target` hold `source`'s first `upTo` tokens (both busy-locked by the caller). */
export async function forkTrunkStart(target: SwarmSequence, source: SwarmSequence, upTo: number): Promise<void> {
  await copySequenceState(target.sequence, source.sequence, upTo);
  const { ledger } = target.shared;
  ledger.remove(target.id);
  ledger.fork(target.id, source.id, upTo);
}

/** A tenant's share of the pool for the budget; absent when the swarm is alone on it with no cap. */
export function shareFigures(swarms: number, share: PoolShare, used: number): Pick<SwarmStats, "share"> {
  const capped = Number.isFinite(share.cap);
  if (swarms <= 1 && !capped) return {};
  return { share: { swarms, ...(capped ? { capCells: share.cap } : {}), usedCells: used } };
}
