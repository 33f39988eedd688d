// Caps on what goes back to an agent: every large result is cut to a size and says that it was cut, so an
// agent never mistakes the first part of a file or of a command's output for the whole.

export interface Capped {
  readonly text: string;
  readonly truncated: boolean;
}

/** Cuts `text` to at most `maxChars` characters, ending with a note that says how much was left out. */
export function capText(text: string, maxChars: number): Capped {
  if (text.length <= maxChars) return { text, truncated: false };
  return {
    text: `${text.slice(0, maxChars)}\n[... cut: ${text.length - maxChars} more characters not shown]`,
    truncated: true,
  };
}

/** Collects a stream's chunks up to `maxBytes`, keeping the head, and counts what it dropped. */
export class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private dropped = 0;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    const room = this.maxBytes - this.kept;
    if (room > 0) {
      const part = chunk.subarray(0, room);
      this.chunks.push(part);
      this.kept += part.length;
    }
    this.dropped += Math.max(0, chunk.length - Math.max(room, 0));
  }

  get truncated(): boolean {
    return this.dropped > 0;
  }

  toString(): string {
    const text = Buffer.concat(this.chunks).toString("utf8");
    return this.dropped > 0 ? `${text}\n[... cut: ${this.dropped} more bytes of output not shown]` : text;
  }
}
