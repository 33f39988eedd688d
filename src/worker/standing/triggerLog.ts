// The trigger log of a standing swarm (`<state dir>/triggers.jsonl`): every trigger with the fast path's route,
// every router decision, every worker's start and end, each appended in one write and fsynced before it counts.
// Opening cuts a torn last line (a crash mid-write) and keeps the rest, so a restart loses no trigger that was
// acknowledged. One writer per file: the worker that runs the swarm.
import { promises as fs } from "node:fs";
import path from "node:path";
import { SerialQueue } from "../../core/serialQueue";
import { decodeTriggerLog, encodeTriggerLine } from "../../core/triggerLogCodec";
import type { TriggerLogLine } from "../../protocol/triggers";

export class TriggerLogFile {
  /** Appends one at a time, each on disk before the next is written. */
  private readonly appends = new SerialQueue();
  private closed = false;

  private constructor(
    readonly file: string,
    private readonly handle: fs.FileHandle,
    /** What the file held when it was opened (a torn last line dropped). */
    readonly lines: readonly TriggerLogLine[],
    private size: number,
    /** Bytes cut from the end on open (a torn line), 0 when none. */
    readonly droppedBytes: number,
  ) {}

  static async open(file: string): Promise<TriggerLogFile> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const handle = await fs.open(file, "a+");
    try {
      const bytes = await handle.readFile();
      const decoded = decodeTriggerLog(bytes.toString("utf8"), file);
      let size = bytes.length;
      if (decoded.torn !== undefined) {
        size = Buffer.byteLength(decoded.keptText, "utf8");
        await handle.truncate(size);
        await handle.sync();
      }
      return new TriggerLogFile(file, handle, decoded.lines, size, bytes.length - size);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Appends one line; resolves once it is on disk (written in one call, fsynced). */
  append(line: TriggerLogLine): Promise<void> {
    return this.appends.run(() => this.appendNow(line));
  }

  private async appendNow(line: TriggerLogLine): Promise<void> {
    if (this.closed) throw new Error(`The trigger log ${this.file} is closed; the line was not written.`);
    const bytes = Buffer.from(encodeTriggerLine(line), "utf8");
    const { bytesWritten } = await this.handle.write(bytes, 0, bytes.length);
    if (bytesWritten !== bytes.length) {
      await this.handle.truncate(this.size);
      throw new Error(`Only ${bytesWritten} of ${bytes.length} bytes reached ${this.file} (disk full?); not written.`);
    }
    await this.handle.sync();
    this.size += bytes.length;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.appends.settled();
    this.closed = true;
    await this.handle.close();
  }
}
