// The one place that reaches past node-llama-cpp's public API. Forking (`seq_cp`) and reading llama.cpp's own
// per-sequence positions are not public in 3.22.1; every other runtime file goes through these wrappers, so a
// future node-llama-cpp release that exposes them changes only this file.
import type { LlamaContext, LlamaContextSequence } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { CellLedger } from "./cellLedger";
import type { SequencePositionCheck } from "../port/engineShapes";

interface SequenceWithInternals {
  readonly _sequenceId: number;
  _copyStateFromOtherSequence(other: LlamaContextSequence, upToTokenIndex: number): Promise<boolean>;
}

interface ContextWithInternals {
  readonly _ctx: {
    getSequenceKvCacheMinPosition(sequenceId: number): number;
    getSequenceKvCacheMaxPosition(sequenceId: number): number;
  };
}

function internalsOf(sequence: LlamaContextSequence): SequenceWithInternals {
  const candidate = sequence as unknown as Partial<SequenceWithInternals>;
  if (typeof candidate._copyStateFromOtherSequence !== "function" || typeof candidate._sequenceId !== "number") {
    throw new Error(
      "This node-llama-cpp build has no LlamaContextSequence._copyStateFromOtherSequence; " +
        "Swarmboard needs node-llama-cpp 3.22.1 exactly (see package.json). Run `npm ci` again.",
    );
  }
  return candidate as SequenceWithInternals;
}

/** llama.cpp's sequence id (the `seq_id` of `llama_memory_seq_*`). */
export function sequenceIdOf(sequence: LlamaContextSequence): number {
  return internalsOf(sequence)._sequenceId;
}

/**
 * Forks `source` into the empty `target` with `llama_memory_seq_cp`: with a unified cache the target becomes one
 * more owner of the source's cells (no decode, no new cells); with a split cache its stream gets a copy.
 */
export async function copySequenceState(
  target: LlamaContextSequence,
  source: LlamaContextSequence,
  upTo: number = source.nextTokenIndex,
): Promise<void> {
  if (target.nextTokenIndex !== 0) {
    throw new Error(`fork target sequence ${sequenceIdOf(target)} is not empty (${target.nextTokenIndex} tokens)`);
  }
  // Up to `upTo`: node-llama-cpp copies the whole sequence and erases the target's tokens from there on.
  const length = Math.min(upTo, source.nextTokenIndex);
  const copied = await internalsOf(target)._copyStateFromOtherSequence(source, length);
  if (!copied || target.nextTokenIndex !== length) {
    throw new Error(
      `llama.cpp did not copy sequence ${sequenceIdOf(source)} (${length} tokens) into sequence ${sequenceIdOf(target)}`,
    );
  }
}

/** The lowest and highest position llama.cpp holds for a sequence (-1, -1 when it holds none). */
export function sequencePositions(context: LlamaContext, sequence: LlamaContextSequence): { min: number; max: number } {
  const addon = (context as unknown as ContextWithInternals)._ctx;
  const id = sequenceIdOf(sequence);
  return { min: addon.getSequenceKvCacheMinPosition(id), max: addon.getSequenceKvCacheMaxPosition(id) };
}

/** Each slot's cell count from the ledger next to llama.cpp's own min/max positions for its sequence. */
export function positionChecks(
  context: LlamaContext,
  ledger: CellLedger,
  slots: readonly { readonly id: string; readonly sequence: LlamaContextSequence }[],
): SequencePositionCheck[] {
  return slots.map((slot) => {
    const { min, max } = sequencePositions(context, slot.sequence);
    return { id: slot.id, ledgerCells: ledger.sequenceCells(slot.id), llamaMinPosition: min, llamaMaxPosition: max };
  });
}
