// The board in memory: entries in the order they were posted, each id once.
// Replaying a log (or the same entry twice) changes nothing: the first entry with an id wins,
// and a different entry under a known id is reported, not applied.
import { boardEntrySchema, type BoardEntry, type BoardEntryInput } from "../protocol/board";
import { formatZodIssues } from "../protocol/zodIssues";

export type ApplyResult = "added" | "duplicate" | "conflict";

export class Board {
  private readonly list: BoardEntry[] = [];
  private readonly byId = new Map<string, BoardEntry>();

  /** Builds a board by applying entries in order (duplicates ignored). */
  static fromEntries(entries: Iterable<BoardEntry>): Board {
    const board = new Board();
    for (const entry of entries) board.apply(entry);
    return board;
  }

  /** Adds an entry unless its id is known; `conflict` means the id is known with different content. */
  apply(entry: BoardEntry): ApplyResult {
    const known = this.byId.get(entry.id);
    if (known !== undefined) return sameEntry(known, entry) ? "duplicate" : "conflict";
    this.byId.set(entry.id, entry);
    this.list.push(entry);
    return "added";
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): BoardEntry | undefined {
    return this.byId.get(id);
  }

  get size(): number {
    return this.list.length;
  }

  /** All entries in posting order. */
  entries(): readonly BoardEntry[] {
    return this.list;
  }

  /** Entries posted after the first `count` (a reader's cursor is the count it has seen). */
  since(count: number): readonly BoardEntry[] {
    return this.list.slice(count);
  }
}

/** Validates a draft entry (defaults filled in); throws a readable error naming the bad fields. */
export function makeEntry(draft: BoardEntryInput): BoardEntry {
  const parsed = boardEntrySchema.safeParse(draft);
  if (!parsed.success) {
    const fields = formatZodIssues(parsed.error, "(entry)");
    throw new Error(`Board entry is not valid (${fields}). Fix the entry before posting it.`);
  }
  return parsed.data;
}

/** Entry ids: `<author>-<n>`, unique as long as each author numbers its own entries. */
export function entryId(author: string, n: number): string {
  return `${author}-${n}`;
}

export function sameEntry(a: BoardEntry, b: BoardEntry): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** JSON with object keys sorted and `undefined` fields dropped: one spelling per value. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}
