// The board log's format: one JSON object per line, each line ending in "\n".
// Pure encode/decode; the file itself is written by src/workspace/boardLog.ts.
// A crash can leave the last line torn (no "\n", or cut mid-object): a line that is not JSON is dropped on
// reopen and everything before it is kept; a last line that is a complete JSON object only lacking its "\n" is
// kept and ended. A complete JSON object this version cannot read (a newer version's entry kind) is never cut:
// it stays in the file, skipped and reported, wherever it is. A line that is not JSON before the last one is
// corruption, reported with its line number.
import { boardEntryKindSchema, boardEntrySchema, type BoardEntry } from "../protocol/board";
import { formatZodIssues } from "../protocol/zodIssues";

/** One entry as the exact text appended to the log (written in one call). */
export function encodeEntry(entry: BoardEntry): string {
  const line = JSON.stringify(entry);
  return line + "\n";
}

/** A line kept in the log that this version does not read. */
export interface UnreadLine {
  readonly line: number;
  readonly reason: string;
}

export interface DecodedLog {
  readonly entries: BoardEntry[];
  /**
   * The text the file must hold: the input less a torn last line, or plus the "\n" a complete last line lacked
   * (equal to the input when nothing was repaired).
   */
  readonly keptText: string;
  /** Set when a torn last line (not JSON) was dropped. */
  readonly torn?: { readonly line: number; readonly reason: string };
  /** Set when the last line was a complete JSON object without its "\n": kept, and keptText ends it. */
  readonly ended?: { readonly line: number };
  /** Complete JSON lines this version cannot read (a newer version's entries): kept in the file, skipped. */
  readonly unread: readonly UnreadLine[];
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

type LineResult = { entry: BoardEntry } | { unread: string } | { error: string };

function parseLine(text: string): LineResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { error: `not JSON: ${(e as Error).message}` };
  }
  const parsed = boardEntrySchema.safeParse(json);
  if (parsed.success) return { entry: parsed.data };
  if (typeof json !== "object" || json === null || Array.isArray(json))
    return { error: `not a board entry: ${formatZodIssues(parsed.error, "(entry)")}` };
  const kind = (json as { kind?: unknown }).kind;
  const known = boardEntryKindSchema.safeParse(kind).success;
  return {
    unread: known
      ? `a ${String(kind)} entry this version cannot read (${formatZodIssues(parsed.error, "(entry)")})`
      : `an entry of kind ${JSON.stringify(kind ?? null)}, which this version does not know (written by a newer Swarmboard?)`,
  };
}

/** Decodes a whole log; `source` (a file name) goes into error messages. */
export function decodeLog(text: string, source = "board log"): DecodedLog {
  const entries: BoardEntry[] = [];
  const unread: UnreadLine[] = [];
  let start = 0;
  let lineNo = 0;
  while (start < text.length) {
    lineNo++;
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    const result = parseLine(text.slice(start, end));
    if ("error" in result) {
      // Only the last line can have been torn by a crash; elsewhere a line that is not JSON is real corruption.
      if (newline < 0 || end + 1 === text.length) {
        const reason = newline < 0 ? "no line end (torn write)" : result.error;
        return { entries, keptText: text.slice(0, start), torn: { line: lineNo, reason }, unread };
      }
      throw new BoardLogCorruptError(lineNo, result.error, source);
    }
    if ("entry" in result) entries.push(result.entry);
    else unread.push({ line: lineNo, reason: result.unread });
    // A complete last object that only lacks its "\n" (the write stopped just before it) is kept and ended.
    if (newline < 0) return { entries, keptText: `${text}\n`, ended: { line: lineNo }, unread };
    start = end + 1;
  }
  return { entries, keptText: text, unread };
}
