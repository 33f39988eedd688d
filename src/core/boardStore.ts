// Where the board's log lives, as seen from core: an interface the worker hands in. The file-backed store
// is src/workspace/boardLog.ts; the in-memory one below serves tests and dry runs.
import type { BoardEntry } from "../protocol/board";

export interface BoardStore {
  /**
   * Makes the entry durable. Resolves only once it is (for a file: written in one call and fsynced);
   * only then does the entry count as posted. `duplicate` when the id is already stored (nothing written).
   */
  append(entry: BoardEntry): Promise<"posted" | "duplicate">;
  /** Every stored entry, in order. */
  entries(): readonly BoardEntry[];
  close(): Promise<void>;
}

export class MemoryBoardStore implements BoardStore {
  private readonly list: BoardEntry[] = [];
  private readonly ids = new Set<string>();

  async append(entry: BoardEntry): Promise<"posted" | "duplicate"> {
    if (this.ids.has(entry.id)) return "duplicate";
    this.ids.add(entry.id);
    this.list.push(entry);
    return "posted";
  }

  entries(): readonly BoardEntry[] {
    return this.list;
  }

  async close(): Promise<void> {}
}
