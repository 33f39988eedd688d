// Which lines of which files a swarm's findings point at, and how those lines move when the user edits the
// file. Pure (no vscode): the editor decorations and the findings list are projections of these marks.
import type { BoardEntry, BoardEntryKind } from "../../protocol/board";

/** The board kinds that are findings (claims, releases and messages are coordination, not findings). */
export const findingKinds: ReadonlySet<BoardEntryKind> = new Set<BoardEntryKind>([
  "OBSERVED",
  "FACT",
  "FAIL",
  "PATCH_SUMMARY",
]);

/** One `file:line` reference of one finding. Lines are 0-based here (the editor's), 1-based on the board. */
export interface FindingMark {
  /** Unique per swarm, entry and reference: the key edits are tracked under. */
  readonly key: string;
  readonly swarmId: string;
  readonly entryId: string;
  readonly kind: BoardEntryKind;
  readonly author: string;
  readonly text: string;
  readonly path: string;
  readonly line: number;
  readonly endLine: number;
}

/** The findings of a swarm, in board order (those without refs are left out: they point nowhere). */
export function findingEntries(entries: readonly BoardEntry[]): BoardEntry[] {
  return entries.filter((e) => findingKinds.has(e.kind));
}

export function findingMarks(swarmId: string, entries: readonly BoardEntry[]): FindingMark[] {
  const marks: FindingMark[] = [];
  for (const entry of findingEntries(entries)) {
    entry.refs.forEach((ref, index) => {
      // A ref without a line points at the file: show it on the first line.
      const line = Math.max(0, (ref.line ?? 1) - 1);
      const endLine = Math.max(line, (ref.endLine ?? ref.line ?? 1) - 1);
      marks.push({
        key: `${swarmId}/${entry.id}/${index}`,
        swarmId,
        entryId: entry.id,
        kind: entry.kind,
        author: entry.author,
        text: entry.text,
        path: ref.path,
        line,
        endLine,
      });
    });
  }
  return marks;
}

/** What the editor shows after the line: kind, author, the start of the text. */
export function markLabel(mark: Pick<FindingMark, "kind" | "author" | "text">, maxChars = 90): string {
  const text = mark.text.replace(/\s+/g, " ").trim();
  const short = text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
  return `${mark.kind} · ${mark.author}: ${short}`;
}

/** One text change, in the coordinates of the document before it (as VS Code reports them). */
export interface LineEdit {
  readonly startLine: number;
  readonly startCharacter: number;
  readonly endLine: number;
  readonly endCharacter: number;
  /** Line breaks in the inserted text. */
  readonly insertedLineBreaks: number;
}

/**
 * Where a line goes after an edit. The line is tracked as the position of its start: before the edit it
 * stays, at or after the edit's end it moves by the change in line count, inside a replaced range it
 * collapses to the edit's start line (its text was replaced).
 */
export function shiftLine(line: number, edit: LineEdit): number {
  const beforeStart = line < edit.startLine || (line === edit.startLine && edit.startCharacter > 0);
  if (beforeStart) return line;
  const atOrAfterEnd = line > edit.endLine || (line === edit.endLine && edit.endCharacter === 0);
  if (atOrAfterEnd) return line + edit.insertedLineBreaks - (edit.endLine - edit.startLine);
  return edit.startLine;
}

/** Applies the edits of one document change (non-overlapping, in any order) from the bottom up. */
export function shiftLines<T extends { line: number; endLine: number }>(range: T, edits: readonly LineEdit[]): T {
  const ordered = [...edits].sort((a, b) => b.startLine - a.startLine || b.startCharacter - a.startCharacter);
  let { line, endLine } = range;
  for (const edit of ordered) {
    line = shiftLine(line, edit);
    endLine = Math.max(line, shiftLine(endLine, edit));
  }
  return { ...range, line, endLine };
}
