// A fork and its end, the runtime's half.
// A fork: a new sequence that shares its parent's cells (shared-cells mode: only an owner is
// added; copy mode: the cells are copied), admitted only when the pool has room for the tail it is expected to
// grow. No token is decoded; the parent's pending token is carried over, so the fork's first step decodes it.
import { KvAdmissionError, SwarmRuntimeError } from "../runtimeErrors";
import { copySequenceState } from "./sequenceInternals";
import type { SwarmSequence } from "./swarmSequence";

/**
 * The fork's first half, at once: admitted (its expected tail reserved, so the next fork admitted before this one
 * is copied sees the room it takes) and given a sequence. Throws a KvAdmissionError when the pool has no room.
 */
export function admitFork(
  parent: SwarmSequence,
  id: string,
  open: (id: string) => SwarmSequence,
  expectedTail: number,
): SwarmSequence {
  const { admission } = parent.shared;
  const available = admission.availableForFork(parent.id);
  if (available < expectedTail) {
    throw new KvAdmissionError(
      `No room for a new agent: it is expected to need ${expectedTail} KV cells and ${available} are free. ` +
        admission.fullAdvice(parent.id, true),
      expectedTail,
      available,
    );
  }
  const slot = open(id);
  admission.reserve(slot.id, expectedTail);
  return slot;
}

/** The fork's second half: llama.cpp copies the parent's cells (or adds an owner), and the ledger follows. */
export async function completeFork(parent: SwarmSequence, slot: SwarmSequence): Promise<SwarmSequence> {
  try {
    if (parent.sequence.nextTokenIndex > 0) await copySequenceState(slot.sequence, parent.sequence);
  } catch (error) {
    parent.shared.admission.forget(slot.id);
    await slot.sequence.dispose();
    throw error;
  }
  parent.shared.ledger.fork(slot.id, parent.id);
  slot.pending = [...parent.pending];
  return slot;
}

/**
 * Ends a forked sequence: its ledger entry and admission go, and llama.cpp frees the cells nobody else owns. A busy
 * sequence is refused before anything changes (thrown, not rejected, so the caller changes nothing either).
 */
export function releaseSequence(slot: SwarmSequence): Promise<void> {
  if (slot.busy) {
    throw new SwarmRuntimeError(
      "agent-busy",
      `${slot.id} is generating or appending; abort it (signal) before releasing.`,
    );
  }
  slot.released = true;
  slot.shared.ledger.remove(slot.id);
  slot.shared.admission.forget(slot.id);
  // Disposing the sequence runs llama_memory_seq_rm on it: cells no other sequence owns become free.
  return slot.sequence.dispose();
}
