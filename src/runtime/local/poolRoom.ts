// What a launch that does not fit on a shared pool is told: what it asked for, what the pool has free, what each
// running swarm holds there (what it wrote, what its agents were promised at fork, and what is left of its cap), and what would free room. The numbers are
// the admission's and llama.cpp's own.
import type { SwarmPool } from "./swarmPool";

const count = (n: number) => n.toLocaleString("en-US");

export function poolFullMessage(pool: SwarmPool, need: { cells: number; seats: number }): string {
  const free = pool.roomForAnother();
  const running = pool
    .holdings()
    .map((held) => {
      const kept = held.unspentCap > 0 ? `, ${count(held.unspentCap)} more kept for its cap` : "";
      const cells = `${count(held.cells)} cells written, ${count(held.promised)} promised to its agents${kept}`;
      return `${held.label} (${cells}; ${held.seats} sequences)`;
    })
    .join("; ");
  return (
    `This swarm does not fit beside the ${pool.tenantCount} running on this model's pool: it needs ` +
    `${count(need.cells)} KV cells and ${need.seats} sequences; the pool has ${count(free)} of ` +
    `${count(pool.poolCells)} cells and ${pool.freeSequences} of ${pool.context.totalSequences} sequences free. ` +
    `Running: ${running}. Stopping one of them frees its cells; a smaller share (--pool-share / ` +
    "swarmboard.poolShareCells) or fewer agents asks for less; a pool sized for more swarms (--pool-swarms / " +
    "swarmboard.poolSwarms) holds more of them."
  );
}
