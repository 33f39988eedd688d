// The board's durable log: one JSON line per entry, appended with one write call and fsynced before the
// entry counts as posted. Opening the file cuts away a torn last line that is not JSON (a crash mid-write) and
// keeps everything before it; a complete line this version cannot read (a newer version's entry) stays in the
// file, skipped, and `notice` tells the person about both. An entry id already in the file is not written
// again, so replays are idempotent.
// One writer per file: the worker that runs the swarm (nothing here locks the file against a second one).
import { promises as fs } from "fs";
import * as path from "path";
import type { BoardEntry } from "../protocol/board";
import type { BoardStore } from "../core/boardStore";
import { decodeLog, encodeEntry, type UnreadLine } from "../core/boardLogCodec";
import { SerialQueue } from "../core/serialQueue";

export interface BoardLogRepair {
  /** Bytes cut from the end of the file (0 when a complete last line was only ended with its "\n"). */
  readonly droppedBytes: number;
  readonly line: number;
  readonly reason: string;
}

export class BoardLogFile implements BoardStore {
  private readonly ids: Set<string>;
  /** Appends run one after another, so the id check and the write cannot interleave. */
  /** Appends one at a time, each on disk before the next is written. */
  private readonly appends = new SerialQueue();
  private closed = false;

  private constructor(
    readonly file: string,
    private readonly handle: fs.FileHandle,
    private readonly list: BoardEntry[],
    private size: number,
    /** Set when opening cut a torn last line, or ended a complete one that lacked its "\n". */
    readonly repair: BoardLogRepair | undefined,
    /** Lines kept in the file that this version cannot read (a newer version's entries). */
    readonly unread: readonly UnreadLine[],
  ) {
    this.ids = new Set(list.map((e) => e.id));
  }

  /** Opens (creating it and its folder if needed) and repairs the log; throws BoardLogCorruptError on real corruption. */
  static async open(file: string): Promise<BoardLogFile> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const handle = await fs.open(file, "a+");
    try {
      const bytes = await handle.readFile();
      const text = bytes.toString("utf8");
      const decoded = decodeLog(text, file);
      let repair: BoardLogRepair | undefined;
      let size = bytes.length;
      if (decoded.torn !== undefined) {
        const kept = Buffer.byteLength(decoded.keptText, "utf8");
        await handle.truncate(kept);
        await handle.sync();
        repair = { droppedBytes: size - kept, line: decoded.torn.line, reason: decoded.torn.reason };
        size = kept;
      } else if (decoded.ended !== undefined) {
        await handle.write("\n");
        await handle.sync();
        repair = { droppedBytes: 0, line: decoded.ended.line, reason: "a complete last line without its line end" };
        size += 1;
      }
      if (bytes.length === 0) await syncFolder(path.dirname(file));
      return new BoardLogFile(file, handle, decoded.entries, size, repair, decoded.unread);
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  append(entry: BoardEntry): Promise<"posted" | "duplicate"> {
    return this.appends.run(() => this.appendNow(entry));
  }

  private async appendNow(entry: BoardEntry): Promise<"posted" | "duplicate"> {
    if (this.closed) throw new Error(`The board log ${this.file} is closed; entry ${entry.id} was not posted.`);
    if (this.ids.has(entry.id)) return "duplicate";
    const bytes = Buffer.from(encodeEntry(entry), "utf8");
    const { bytesWritten } = await this.handle.write(bytes, 0, bytes.length);
    if (bytesWritten !== bytes.length) {
      // A short write would leave a torn line in the middle once the next entry lands: cut it now.
      await this.handle.truncate(this.size);
      throw new Error(
        `Only ${bytesWritten} of ${bytes.length} bytes of entry ${entry.id} reached ${this.file} (disk full?); it was not posted.`,
      );
    }
    await this.handle.sync();
    this.size += bytes.length;
    this.ids.add(entry.id);
    this.list.push(entry);
    return "posted";
  }

  entries(): readonly BoardEntry[] {
    return this.list;
  }

  /** What opening found and did, for the person (undefined when the log was whole and fully read). */
  notice(): string | undefined {
    const parts: string[] = [];
    const r = this.repair;
    if (r !== undefined)
      parts.push(
        r.droppedBytes > 0
          ? `its last line (line ${r.line}) was cut by a crash (${r.reason}): ${r.droppedBytes} byte(s) that were not a whole entry were removed`
          : `its last line (line ${r.line}) was whole but lacked its line end after a crash: it was kept and ended`,
      );
    if (this.unread.length > 0) {
      const lines = this.unread.map((u) => u.line).join(", ");
      parts.push(
        `${this.unread.length} line(s) this version cannot read were kept in the file and skipped (line ${lines}: ` +
          `${this.unread[0]!.reason}); update Swarmboard to see them`,
      );
    }
    return parts.length > 0 ? `The board log ${this.file} was reopened: ${parts.join("; ")}.` : undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.appends.settled();
    this.closed = true;
    await this.handle.close();
  }
}

/** fsync the folder so that a newly created log file's name survives a crash too. */
async function syncFolder(folder: string): Promise<void> {
  const dir = await fs.open(folder, "r");
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
