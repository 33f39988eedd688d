// A swarm's part of a KV pool it shares with other swarms (SwarmStats.share), in words for the panel and the CLI:
// why its room is smaller than the pool's free cells would say, and how much of its cap it has written. A swarm
// alone on a pool sized for several has a cap too (its fair share): the rest is kept for the swarms that join.
import type { SwarmStats } from "../protocol/runtime";

const n = (value: number): string => value.toLocaleString("en-US");

/**
 * "Shares the pool with 1 other swarm: wrote 3,282 cells of its 5,000-cell cap."; undefined when the pool is its
 * own and it has no cap. `poolCells`: the whole pool, named when the swarm is alone on it with a cap.
 */
export function poolShareText(share: SwarmStats["share"], poolCells?: number): string | undefined {
  if (share === undefined) return undefined;
  const cap =
    share.capCells === undefined
      ? `wrote ${n(share.usedCells)} cells (no cap of its own: it may use the pool's free cells)`
      : `wrote ${n(share.usedCells)} cells of its ${n(share.capCells)}-cell cap`;
  if (share.swarms <= 1) {
    if (share.capCells === undefined) return undefined;
    const pool = poolCells === undefined ? "the pool" : `the ${n(poolCells)}-cell pool`;
    return `Alone on ${pool}, sized for more swarms (the rest is kept for them): ${cap}.`;
  }
  const others = share.swarms - 1;
  return `Shares the pool with ${others} other swarm${others === 1 ? "" : "s"} (their agents step in the same dispatch): ${cap}.`;
}
