// A swarm's events trace (`events.jsonl`, one event per line), appended batch by batch in order. The trace is
// what a reloaded window and `replay-script` read back; a failed write is reported once, never thrown into the run.
// A client that starts following a running swarm is told where the trace stood at that moment (`mark`): it reads
// the trace up to there and gets every later event live, so nothing falls between the two and nothing comes twice.
import { statSync } from "node:fs";
import { appendFile } from "node:fs/promises";
import { SerialQueue } from "../core/serialQueue";
import type { SwarmEvent } from "../protocol/swarmEvents";

export class EventsTrace {
  /** Batches are written one at a time, in order. */
  private readonly writes = new SerialQueue();
  private failed = false;
  /** The trace's length once every batch handed to `append` so far is written (a resume appends to its old trace). */
  private bytes: number;

  constructor(
    readonly file: string,
    private readonly onError: (message: string) => void,
  ) {
    this.bytes = sizeOf(file);
  }

  append(events: readonly SwarmEvent[]): void {
    if (events.length === 0) return;
    const text = events.map((e) => JSON.stringify(e)).join("\n") + "\n";
    this.bytes += Buffer.byteLength(text, "utf8");
    void this.writes.run(() =>
      appendFile(this.file, text).catch((error: Error) => {
        if (!this.failed) this.onError(`the events trace ${this.file} could not be written: ${error.message}`);
        this.failed = true;
      }),
    );
  }

  /**
   * The trace's length after the batches appended so far, taken now (the caller starts sending this swarm's events
   * to a new follower in the same tick); resolves once those bytes are on disk, so a read up to it finds them all.
   */
  mark(): Promise<number> {
    const at = this.bytes;
    return this.writes.settled().then(() => at);
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0; // a new swarm: no trace yet
  }
}
