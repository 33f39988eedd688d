// A swarm's part of a KV pool it shares with other swarms (SwarmStats.share), in words for the panel and the CLI:
// why its room is smaller than the pool's free cells would say, and how much of its cap it has written.
import type { SwarmStats } from "../protocol/runtime";

const n = (value: number): string => value.toLocaleString("en-US");

/** "Shares the pool with 1 other swarm: wrote 3,282 cells of its 5,000-cell cap."; undefined when the pool is its own. */
export function poolShareText(share: SwarmStats["share"]): string | undefined {
  if (share === undefined || share.swarms <= 1) return undefined;
  const others = share.swarms - 1;
  const cap =
    share.capCells === undefined
      ? `wrote ${n(share.usedCells)} cells (no cap of its own: it may use the pool's free cells)`
      : `wrote ${n(share.usedCells)} cells of its ${n(share.capCells)}-cell cap`;
  return `Shares the pool with ${others} other swarm${others === 1 ? "" : "s"} (their agents step in the same dispatch): ${cap}.`;
}
