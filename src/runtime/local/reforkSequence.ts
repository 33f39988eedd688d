// Compaction by re-fork, the runtime's half: an agent whose private tail reached its share gives all its cells
// back and is forked again from the trunk, in a fresh sequence under the same id. Like any fork from the trunk it
// decodes nothing and takes no cell; the worker then reads the agent's compact brief into it.
import { copySequenceState, sequencePositions } from "./sequenceInternals";
import type { SequencePositionCheck } from "../port/engineShapes";
import type { SwarmSequence } from "./swarmSequence";

/** The ledger's cell count of a sequence next to llama.cpp's own min/max positions. */
export function positionCheck(slot: SwarmSequence): SequencePositionCheck {
  const { min, max } = sequencePositions(slot.shared.context, slot.sequence);
  return {
    id: slot.id,
    ledgerCells: slot.shared.ledger.sequenceCells(slot.id),
    llamaMinPosition: min,
    llamaMaxPosition: max,
  };
}

/**
 * Releases `old` (both busy-locked by the caller) and returns a fresh sequence under its id, forked from `trunk`.
 * `open` gets a new llama.cpp sequence; it is called after the old one is disposed, so its seat is free again.
 */
export async function reforkFromTrunk(
  old: SwarmSequence,
  trunk: SwarmSequence,
  open: (id: string) => SwarmSequence,
  expectedTail: number,
): Promise<{ slot: SwarmSequence; releasedCells: number }> {
  const { ledger, admission } = old.shared;
  const releasedCells = ledger.privateCells(old.id);
  old.released = true;
  // Disposing runs llama_memory_seq_rm on the old sequence: cells nobody else owns become free. The ledger keeps
  // counting them until the new sequence is in place (a moment of caution, never a cell promised twice), so the
  // agent is never missing from it.
  await old.sequence.dispose();
  const slot = open(old.id);
  if (trunk.sequence.nextTokenIndex > 0) await copySequenceState(slot.sequence, trunk.sequence);
  ledger.remove(old.id);
  admission.forget(old.id);
  ledger.fork(slot.id, trunk.id);
  admission.reserve(slot.id, expectedTail);
  slot.pending = [...trunk.pending];
  return { slot, releasedCells };
}
