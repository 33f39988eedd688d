// Admission control over the KV pool: decides, before llama.cpp is asked, whether a fork, an append or the next
// token has cells, so that a full pool is a refusal or a paused agent and never a failed `llama_decode`.
// A fork promises the new agent its expected tail; those promised cells are kept from the other agents.
import type { CellLedger } from "./cellLedger";

interface Reservation {
  readonly expectedTail: number;
  grown: number;
}

export class KvAdmission {
  private readonly reservations = new Map<string, Reservation>();

  constructor(
    private readonly ledger: CellLedger,
    /** Cells llama.cpp allocated. */
    readonly poolCells: number,
    /** Most tokens one sequence may hold (node-llama-cpp keeps one position free, hence the -1 below). */
    readonly sequenceCellLimit: number,
  ) {}

  reserve(id: string, expectedTail: number): void {
    this.reservations.set(id, { expectedTail, grown: 0 });
  }

  forget(id: string): void {
    this.reservations.delete(id);
  }

  /** Cells promised at fork and not used yet, over all agents but `except`. */
  outstanding(except?: string): number {
    let total = 0;
    for (const [id, reservation] of this.reservations) {
      if (id !== except) total += Math.max(0, reservation.expectedTail - reservation.grown);
    }
    return total;
  }

  /** Cells the pool could give `id` now without touching what is promised to others. */
  availableFor(id: string): number {
    const sequenceRoom = this.sequenceCellLimit - 1 - this.ledger.sequenceCells(id) - this.ledger.inFlightOf(id);
    if (this.ledger.mode === "copy-mode") return Math.max(0, sequenceRoom);
    const poolRoom = this.freeCells() - this.outstanding(id);
    return Math.max(0, Math.min(sequenceRoom, poolRoom));
  }

  /** Room for a new agent forked from `parentId`. */
  availableForFork(parentId: string): number {
    const sequenceRoom = this.sequenceCellLimit - 1 - this.ledger.sequenceCells(parentId);
    if (this.ledger.mode === "copy-mode") return Math.max(0, sequenceRoom);
    return Math.max(0, Math.min(sequenceRoom, this.freeCells() - this.outstanding()));
  }

  freeCells(): number {
    return this.poolCells - this.ledger.usedCells() - this.ledger.inFlightCells();
  }

  /** Takes `count` cells for `id` if it may have them. */
  tryTake(id: string, count: number): boolean {
    if (this.availableFor(id) < count) return false;
    this.ledger.take(id, count);
    return true;
  }

  commit(id: string, count: number): void {
    this.ledger.commit(id, count);
    const reservation = this.reservations.get(id);
    if (reservation !== undefined) reservation.grown += count;
  }

  giveBack(id: string, count: number): void {
    this.ledger.giveBack(id, count);
  }
}
