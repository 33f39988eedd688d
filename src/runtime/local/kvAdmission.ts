// Admission control over the KV pool: decides, before llama.cpp is asked, whether a fork, an append or the next
// token has cells, so that a full pool is a refusal or a paused agent and never a failed `llama_decode`.
// A fork promises the new agent its expected tail; those promised cells are kept from the other agents.
// Several swarms may share one pool (swarmPool.ts): each one's sequences are a share with a cap of cells, and a
// sequence of a share gets no more than what its share has left, counting the cells it wrote and its promises.
import type { CellLedger } from "./cellLedger";

/** One swarm's part of a shared pool: its sequences and the most cells they may write and be promised. */
export interface PoolShare {
  /** Set at launch; a kept context takes the next swarm's (SwarmContext.retune). */
  cap: number;
  readonly ids: Set<string>;
}

interface Reservation {
  readonly expectedTail: number;
  grown: number;
}

export class KvAdmission {
  private readonly reservations = new Map<string, Reservation>();
  private readonly shares = new Map<string, PoolShare>();

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

  /** `id` belongs to `share` from now on (until `leaveShare`). */
  joinShare(id: string, share: PoolShare): void {
    share.ids.add(id);
    this.shares.set(id, share);
  }

  leaveShare(id: string): void {
    this.shares.get(id)?.ids.delete(id);
    this.shares.delete(id);
  }

  /** Cells a share's sequences wrote or have in flight. */
  shareUsed(share: PoolShare): number {
    let used = 0;
    for (const id of share.ids)
      if (this.ledger.has(id)) used += this.ledger.writtenCells(id) + this.ledger.inFlightOf(id);
    return used;
  }

  /** What a share has left of its cap beyond what it used and promised (infinite: no cap). */
  unspentShare(share: PoolShare): number {
    const [first] = share.ids;
    return first === undefined ? share.cap : Math.max(0, this.shareRoom(first));
  }

  /** Cells promised at fork to a share's sequences (but `except`) and not written yet. */
  sharePromised(share: PoolShare, except?: string): number {
    let promised = 0;
    for (const member of share.ids) {
      const reservation = this.reservations.get(member);
      if (member !== except && reservation !== undefined)
        promised += Math.max(0, reservation.expectedTail - reservation.grown);
    }
    return promised;
  }

  /** What `id`'s share has left beyond what it used and promised (to its sequences but `except`); none: no cap. */
  private shareRoom(id: string, except?: string): number {
    const share = this.shares.get(id);
    if (share === undefined) return Number.POSITIVE_INFINITY;
    return share.cap - this.shareUsed(share) - this.sharePromised(share, except);
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
    const shareRoom = this.shareRoom(id, id);
    if (this.ledger.mode === "copy-mode") return Math.max(0, Math.min(sequenceRoom, shareRoom));
    const poolRoom = this.freeCells() - this.outstanding(id);
    return Math.max(0, Math.min(sequenceRoom, poolRoom, shareRoom));
  }

  /** Room for a new agent forked from `parentId`. */
  availableForFork(parentId: string): number {
    const sequenceRoom = this.sequenceCellLimit - 1 - this.ledger.sequenceCells(parentId);
    const shareRoom = this.shareRoom(parentId);
    if (this.ledger.mode === "copy-mode") return Math.max(0, Math.min(sequenceRoom, shareRoom));
    return Math.max(0, Math.min(sequenceRoom, this.freeCells() - this.outstanding(), shareRoom));
  }

  /**
   * What to do when `id` (or a fork of it) found no room, in words for its kv-full message: when its swarm's cap on
   * a shared pool is what binds (the pool itself has more), the cap and how to raise it; else the pool's remedy.
   */
  fullAdvice(id: string, fork = false): string {
    const share = this.shares.get(id);
    const shareRoom = fork ? this.shareRoom(id) : this.shareRoom(id, id);
    const poolRoom = this.freeCells() - this.outstanding(fork ? undefined : id);
    const capBinds = share !== undefined && Number.isFinite(share.cap) && shareRoom < poolRoom;
    // A split cache (copy mode) is never shared: its limit is the sequence's stream, not a cap.
    if (capBinds && this.ledger.mode !== "copy-mode")
      return (
        `Its swarm reached its cap of ${share!.cap.toLocaleString("en-US")} KV cells on the pool it shares ` +
        `(${this.shareUsed(share!).toLocaleString("en-US")} written, the rest promised to its agents) while the pool ` +
        "has more free: release finished agents, or launch it with a larger --pool-share / swarmboard.poolShareCells " +
        "(or size the pool for fewer swarms: --pool-swarms / swarmboard.poolSwarms)."
      );
    const smaller = fork ? ", fork with a smaller expectedTail," : "";
    return `Release finished agents${smaller} or raise swarmboard.kvCellsBudget.`;
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
