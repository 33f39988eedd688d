// The MCP server's stdin, one whole line at a time and none over the limit: a line over `maxLineBytes` is dropped
// (never buffered past the limit) and answered with a JSON-RPC error, with its id when the line's start names
// one, so the client hears why instead of the server going silent (the SDK's transport closes on such a line).
import { Transform, type TransformCallback } from "node:stream";

/** The line limit: the SDK's own stdio buffer size (10 MiB). */
export const maxMcpLineBytes = 10 * 1024 * 1024;
/** JSON-RPC's code for a request that is not a valid request object. */
const invalidRequest = -32600;

/** The error a too-large line gets: its id when one is named before its params, else null. */
export function tooLargeAnswer(prefix: string, maxLineBytes: number): string {
  const head = prefix.split(/"params"\s*:/)[0]!;
  const id = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")/.exec(head)?.[1];
  const mib = (maxLineBytes / (1024 * 1024)).toFixed(0);
  return JSON.stringify({
    jsonrpc: "2.0",
    id: id === undefined ? null : JSON.parse(id),
    error: {
      code: invalidRequest,
      message:
        `The message is over ${mib} MiB, the limit of one line on stdio, and was dropped unread. ` +
        "Send less in one call (a goal of that size: put it in a file in the workspace and name the file).",
    },
  });
}

export class McpLineGuard extends Transform {
  private parts: Buffer[] = [];
  private length = 0;
  /** Inside a line over the limit: its bytes are dropped until its newline. */
  private dropping = false;
  private prefix = "";

  constructor(
    private readonly answer: (line: string) => void,
    private readonly maxLineBytes = maxMcpLineBytes,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let rest = chunk;
    while (rest.length > 0) {
      const newline = rest.indexOf(10);
      const piece = newline === -1 ? rest : rest.subarray(0, newline + 1);
      rest = newline === -1 ? Buffer.alloc(0) : rest.subarray(newline + 1);
      if (!this.dropping) {
        this.parts.push(piece);
        this.length += piece.length;
        if (this.length > this.maxLineBytes) {
          this.prefix = Buffer.concat(this.parts).toString("utf8", 0, 4096);
          this.parts = [];
          this.length = 0;
          this.dropping = true;
        } else if (newline !== -1) {
          this.push(Buffer.concat(this.parts));
          this.parts = [];
          this.length = 0;
        }
      }
      if (this.dropping && newline !== -1) {
        this.dropping = false;
        this.answer(tooLargeAnswer(this.prefix, this.maxLineBytes));
      }
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.length > 0) this.push(Buffer.concat(this.parts));
    if (this.dropping) this.answer(tooLargeAnswer(this.prefix, this.maxLineBytes));
    done();
  }
}
