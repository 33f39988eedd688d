// A Transport over a byte stream (a local socket): one JSON envelope per line. The stream is given structurally, so
// this stays free of I/O and the same framing serves the shared worker and every client that connects to it.
// Nothing received is trusted: a line that is not JSON is reported and skipped, and a line over the frame limit is
// never buffered whole: the connection is closed with a message that says the limit, since the other side is
// either broken or hostile and its next line would start mid-frame.
import type { Disposable } from "../disposable";
import type { Transport } from "./transport";

/** What the framing needs of a socket (net.Socket fits, its encoding set to utf8). */
export interface TextStream {
  write(text: string): boolean;
  on(event: "data", listener: (chunk: string) => void): unknown;
  off(event: "data", listener: (chunk: string) => void): unknown;
  destroy(): void;
}

/**
 * The largest frame, in characters: far above any message the protocol sends (a batch of events, a multi-megabyte
 * goal or file) and well below what would let one client take the server's memory.
 */
export const maxFrameChars = 64 * 1024 * 1024;

export interface LineTransportOptions {
  /** A line that is not JSON, or the frame limit crossed (then the stream is destroyed). */
  onViolation(reason: string): void;
  maxFrameChars?: number;
}

export class LineTransport implements Transport {
  private readonly listeners = new Set<(message: unknown) => void>();
  private buffered: string[] = [];
  private bufferedChars = 0;
  private readonly limit: number;
  private readonly onData = (chunk: string) => this.receive(chunk);

  constructor(
    private readonly stream: TextStream,
    private readonly options: LineTransportOptions,
  ) {
    this.limit = options.maxFrameChars ?? maxFrameChars;
    stream.on("data", this.onData);
  }

  send(message: unknown): void {
    this.stream.write(`${JSON.stringify(message)}\n`);
  }

  onMessage(listener: (message: unknown) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Stops reading; the stream itself is its owner's to close. */
  dispose(): void {
    this.stream.off("data", this.onData);
    this.listeners.clear();
  }

  private receive(chunk: string): void {
    let start = 0;
    for (let nl = chunk.indexOf("\n"); nl !== -1; nl = chunk.indexOf("\n", start)) {
      const line = this.buffered.join("") + chunk.slice(start, nl);
      this.buffered = [];
      this.bufferedChars = 0;
      start = nl + 1;
      if (line.length > this.limit) return this.overLimit(line.length);
      this.deliver(line);
    }
    const rest = chunk.slice(start);
    if (rest.length === 0) return;
    this.bufferedChars += rest.length;
    if (this.bufferedChars > this.limit) return this.overLimit(this.bufferedChars);
    this.buffered.push(rest);
  }

  private deliver(line: string): void {
    if (line.trim() === "") return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (err) {
      this.options.onViolation(`a line that is not JSON was skipped (${(err as Error).message})`);
      return;
    }
    for (const listener of this.listeners) listener(message);
  }

  private overLimit(chars: number): void {
    this.buffered = [];
    this.bufferedChars = 0;
    this.dispose();
    this.options.onViolation(
      `a frame of over ${chars} characters crossed the limit of ${this.limit}; the connection was closed. ` +
        "Send large content as a file in the workspace and name the file.",
    );
    this.stream.destroy();
  }
}
