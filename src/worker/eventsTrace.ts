// A swarm's events trace (`events.jsonl`, one event per line), appended batch by batch in order. The trace is
// what a reloaded window and `replay-script` read back; a failed write is reported once, never thrown into the run.
import { appendFile } from "node:fs/promises";
import { SerialQueue } from "../core/serialQueue";
import type { SwarmEvent } from "../protocol/swarmEvents";

export class EventsTrace {
  /** Batches are written one at a time, in order. */
  private readonly writes = new SerialQueue();
  private failed = false;

  constructor(
    readonly file: string,
    private readonly onError: (message: string) => void,
  ) {}

  append(events: readonly SwarmEvent[]): void {
    if (events.length === 0) return;
    const text = events.map((e) => JSON.stringify(e)).join("\n") + "\n";
    void this.writes.run(() =>
      appendFile(this.file, text).catch((error: Error) => {
        if (!this.failed) this.onError(`the events trace ${this.file} could not be written: ${error.message}`);
        this.failed = true;
      }),
    );
  }
}
