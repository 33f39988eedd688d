// Exact KV cell accounting, kept next to llama.cpp rather than asked of it (llama.cpp exposes per-sequence
// positions, not owners). Each sequence writes its own "segment" of cells, starting where it was forked; a fork
// references its parent's segments up to the fork point. In shared-cells mode a cell lives while any sequence
// references it, so a segment's live extent is the furthest point any live sequence reaches into it. In copy
// mode every sequence holds a private copy of its whole history.
import type { RuntimeMode } from "../../protocol/runtime";

interface SegmentRef {
  readonly segment: number;
  /** Position (exclusive) up to which the holder reads this segment. */
  readonly upTo: number;
}

interface LedgerEntry {
  readonly segment: number;
  readonly segmentStart: number;
  /** Tokens this sequence holds in the cache (= llama.cpp's max position + 1). */
  length: number;
  /** Cells taken for decodes in flight. */
  inFlight: number;
  readonly inherited: readonly SegmentRef[];
}

export class CellLedger {
  private readonly entries = new Map<string, LedgerEntry>();
  private nextSegment = 0;

  constructor(readonly mode: RuntimeMode) {}

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** A sequence that starts empty (the trunk). */
  addRoot(id: string): void {
    this.assertNew(id);
    this.entries.set(id, { segment: this.nextSegment++, segmentStart: 0, length: 0, inFlight: 0, inherited: [] });
  }

  /** `childId` becomes a copy of `parentId`'s current state, or of its first `upTo` tokens. */
  fork(childId: string, parentId: string, upTo?: number): void {
    this.assertNew(childId);
    const parent = this.entry(parentId);
    if (parent.inFlight > 0) throw new Error(`cannot fork ${parentId} while it has decodes in flight`);
    const at = upTo ?? parent.length;
    if (at < 0 || at > parent.length) throw new Error(`cannot fork ${parentId} at ${at}: it holds ${parent.length}`);
    // A fork inside an inherited segment reads that segment only up to the fork point, and no later one.
    const inherited = [...parent.inherited, { segment: parent.segment, upTo: parent.length }]
      .filter((_ref, index, refs) => index === 0 || refs[index - 1].upTo < at)
      .map((ref) => ({ segment: ref.segment, upTo: Math.min(ref.upTo, at) }));
    this.entries.set(childId, { segment: this.nextSegment++, segmentStart: at, length: at, inFlight: 0, inherited });
  }

  /** Marks `count` cells as taken by a decode about to run for `id`. */
  take(id: string, count: number): void {
    this.entry(id).inFlight += count;
  }

  /** The decode ran: its cells now hold tokens. */
  commit(id: string, count: number): void {
    const entry = this.entry(id);
    entry.inFlight -= count;
    entry.length += count;
  }

  /** The decode did not run: give its cells back. */
  giveBack(id: string, count: number): void {
    this.entry(id).inFlight -= count;
  }

  /** `id` drops its tokens from `length` on (llama.cpp erased them); refused while another sequence reads them. */
  truncate(id: string, length: number): void {
    const entry = this.entry(id);
    if (entry.inFlight > 0) throw new Error(`cannot truncate ${id} while it has decodes in flight`);
    if (length < entry.segmentStart || length > entry.length)
      throw new Error(
        `cannot truncate ${id} to ${length}: it holds positions ${entry.segmentStart} to ${entry.length}`,
      );
    for (const [otherId, other] of this.entries) {
      if (other.inherited.some((ref) => ref.segment === entry.segment && ref.upTo > length))
        throw new Error(`cannot truncate ${id} to ${length}: ${otherId} reads its cells beyond that`);
    }
    entry.length = length;
  }

  remove(id: string): void {
    this.entry(id);
    this.entries.delete(id);
  }

  /** Cells `id` wrote itself (from its fork point on; copy mode: its whole copy): what it is charged for. */
  writtenCells(id: string): number {
    const entry = this.entry(id);
    return this.mode === "copy-mode" ? entry.length : entry.length - entry.segmentStart;
  }

  sequenceCells(id: string): number {
    return this.entry(id).length;
  }

  inFlightOf(id: string): number {
    return this.entry(id).inFlight;
  }

  inFlightCells(): number {
    let total = 0;
    for (const entry of this.entries.values()) total += entry.inFlight;
    return total;
  }

  usedCells(): number {
    if (this.mode === "copy-mode") {
      let total = 0;
      for (const entry of this.entries.values()) total += entry.length;
      return total;
    }
    let total = 0;
    for (const [segment, start] of this.segmentStarts()) total += Math.max(0, this.reach(segment) - start);
    return total;
  }

  /** Cells only `id` holds: what releasing it frees. */
  privateCells(id: string): number {
    const entry = this.entry(id);
    if (this.mode === "copy-mode") return entry.length;
    let total = 0;
    const starts = this.segmentStarts();
    for (const ref of [...entry.inherited, { segment: entry.segment, upTo: entry.length }]) {
      const others = this.reach(ref.segment, id);
      const start = starts.get(ref.segment) ?? 0;
      total += Math.max(0, ref.upTo - Math.max(start, others));
    }
    return total;
  }

  /** How many other live sequences read cells `id` wrote (the trunk's owners, for the trunk). */
  readersOf(id: string): number {
    const entry = this.entry(id);
    let readers = 0;
    for (const [otherId, other] of this.entries) {
      if (otherId === id) continue;
      if (other.inherited.some((ref) => ref.segment === entry.segment && ref.upTo > entry.segmentStart)) readers++;
    }
    return readers;
  }

  /** Furthest position any live sequence (but `except`) reaches into `segment`. */
  private reach(segment: number, except?: string): number {
    let furthest = 0;
    for (const [id, entry] of this.entries) {
      if (id === except) continue;
      if (entry.segment === segment) furthest = Math.max(furthest, entry.length);
      for (const ref of entry.inherited) {
        if (ref.segment === segment) furthest = Math.max(furthest, ref.upTo);
      }
    }
    return furthest;
  }

  /** Where each segment still referenced by a live sequence starts. */
  private segmentStarts(): Map<number, number> {
    const starts = new Map<number, number>();
    const firstReads = new Map<number, number>();
    for (const entry of this.entries.values()) {
      starts.set(entry.segment, entry.segmentStart);
      entry.inherited.forEach((ref, index) => {
        // A released writer's segment starts where the next inherited segment's writer was forked from it.
        const start = index === 0 ? 0 : entry.inherited[index - 1].upTo;
        firstReads.set(ref.segment, Math.min(firstReads.get(ref.segment) ?? start, start));
      });
    }
    for (const [segment, start] of firstReads) if (!starts.has(segment)) starts.set(segment, start);
    return starts;
  }

  private entry(id: string): LedgerEntry {
    const entry = this.entries.get(id);
    if (entry === undefined) throw new Error(`no sequence ${id} in the cell ledger`);
    return entry;
  }

  private assertNew(id: string): void {
    if (this.entries.has(id)) throw new Error(`sequence ${id} is already in the cell ledger`);
  }
}
