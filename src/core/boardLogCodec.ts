// The board log's format: one JSON object per line, each line ending in "\n".
// Pure encode/decode; the file itself is written by src/workspace/boardLog.ts.
// A crash can leave the last line torn (no "\n", or cut mid-object): it is dropped on reopen and
// everything before it is kept. A bad line anywhere else is corruption, reported with its line number.
import { boardEntrySchema, type BoardEntry } from "../protocol/board";
import { formatZodIssues } from "../protocol/zodIssues";

/** One entry as the exact text appended to the log (written in one call). */
export function encodeEntry(entry: BoardEntry): string {
  const line = JSON.stringify(entry);
  return line + "\n";
}

export interface DecodedLog {
  readonly entries: BoardEntry[];
  /** The intact prefix of the text: what the file must be cut back to (equal to the input when nothing was torn). */
  readonly keptText: string;
  /** Set when a torn last line was dropped. */
  readonly torn?: { readonly line: number; readonly reason: string };
}

export class BoardLogCorruptError extends Error {
  constructor(
    readonly line: number,
    readonly detail: string,
    source: string,
  ) {
    super(
      `${source}: line ${line} is not a valid board entry (${detail}). The log is append-only and only its last ` +
        `line may be torn by a crash; restore the file from a copy or move it aside to start a new board.`,
    );
    this.name = "BoardLogCorruptError";
  }
}

function parseLine(text: string): { entry: BoardEntry } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { error: `not JSON: ${(e as Error).message}` };
  }
  const parsed = boardEntrySchema.safeParse(json);
  if (!parsed.success) {
    return { error: formatZodIssues(parsed.error, "(entry)") };
  }
  return { entry: parsed.data };
}

/** Decodes a whole log; `source` (a file name) goes into error messages. */
export function decodeLog(text: string, source = "board log"): DecodedLog {
  const entries: BoardEntry[] = [];
  let start = 0;
  let lineNo = 0;
  while (start < text.length) {
    lineNo++;
    const end = text.indexOf("\n", start);
    if (end < 0) {
      return { entries, keptText: text.slice(0, start), torn: { line: lineNo, reason: "no line end (torn write)" } };
    }
    const result = parseLine(text.slice(start, end));
    if ("error" in result) {
      // Only the last line can have been torn by a crash; elsewhere a bad line is real corruption.
      if (end + 1 === text.length)
        return { entries, keptText: text.slice(0, start), torn: { line: lineNo, reason: result.error } };
      throw new BoardLogCorruptError(lineNo, result.error, source);
    }
    entries.push(result.entry);
    start = end + 1;
  }
  return { entries, keptText: text };
}
