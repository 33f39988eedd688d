// How a KV pool several swarms share is sized and split. The first swarm of a model creates the pool; sized for one
// swarm's sequences, it rarely had room for a second, which then got a pool beside it (a second llama.cpp context:
// two dispatches per step). A pool sized for `poolSwarms` swarms counts that many swarms' sequences when it is
// sized (memory and the user's caps still bound it), and each swarm on it gets a cap at launch: the one it asked
// for, else a fair share, so that the swarms that come later find their part free.
import { maxPoolSwarms } from "../protocol/settings";

export interface FairShareInput {
  /** Cells of the pool. */
  readonly poolCells: number;
  /** Swarms the pool was sized for (1: a pool of one swarm's size). */
  readonly poolSwarms: number;
  /** Swarms on the pool now, the new one not counted. */
  readonly running: number;
  /** Cells a swarm joining now could be given (free, not promised, not kept for another's cap). */
  readonly room: number;
}

/**
 * The cap a swarm that asked for none gets: an equal part of the pool among the swarms it was sized for, or among
 * those running with this one when they are more, and never more than the room there is. The first swarm on a pool
 * sized for one has none (undefined): it may use the whole pool, as a lone swarm always could.
 */
export function fairShareCells(input: FairShareInput): number | undefined {
  const poolSwarms = Math.max(1, Math.floor(input.poolSwarms));
  if (input.running === 0 && poolSwarms === 1) return undefined;
  const parts = Math.max(poolSwarms, input.running + 1);
  return Math.max(0, Math.min(Math.floor(input.room), Math.floor(input.poolCells / parts)));
}

/** The sequences the pool's size counts: one swarm's (its agents, trunk and synthesist) for each it is sized for. */
export function poolSizingSequences(swarmSequences: number, poolSwarms: number | undefined): number {
  const swarms = Math.min(maxPoolSwarms, Math.max(1, Math.floor(poolSwarms ?? 1)));
  return swarmSequences * swarms;
}
