// The memory file's format: one memory (src/protocol/memory.ts) per line, each checked by its schema on read.
// Pure encode/decode; the file is written by src/workspace/repositoryMemory.ts.
// Memory is a convenience, not the record of a run: a line that cannot be read costs that memory only, and is
// never lost: it is skipped and reported with its number, and a rewrite (an add, a delete) carries it, and a
// torn last line (a crash mid-write of an older writer, an editor), over unchanged, so a newer version's
// memories or a line a person can mend by hand are still there.
import { memorySchema, type Memory } from "../protocol/memory";
import { formatZodIssues } from "../protocol/zodIssues";

export interface DecodedMemories {
  readonly memories: Memory[];
  /** Lines that were skipped, each with its number and why. */
  readonly problems: string[];
  /** Set when the last line had no line end (it is not read, and kept). */
  readonly tornLine?: number;
  /** What a rewrite must carry over as it is: the lines not read (each without its "\n"), then the torn tail. */
  readonly kept: { readonly lines: readonly string[]; readonly tail: string };
}

function parseLine(text: string): Memory | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
  const parsed = memorySchema.safeParse(json);
  return parsed.success ? parsed.data : formatZodIssues(parsed.error, "(memory)");
}

export function decodeMemories(text: string, source: string): DecodedMemories {
  const lines = text.split("\n");
  // The text after the last "\n": empty when the file ends cleanly, else a line whose write did not finish.
  const tail = lines.pop() ?? "";
  const memories: Memory[] = [];
  const problems: string[] = [];
  const unread: string[] = [];
  const seen = new Set<string>();
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    const parsed = parseLine(line);
    if (typeof parsed === "string") {
      problems.push(`${source}: line ${i + 1} is not a memory and was skipped (${parsed}); it is kept in the file.`);
      unread.push(line);
    } else if (!seen.has(parsed.id)) {
      seen.add(parsed.id);
      memories.push(parsed);
    }
  });
  const torn = tail.trim() !== "";
  if (torn)
    problems.push(
      `${source}: its last line (line ${lines.length + 1}) has no line end (a write that did not finish) and was ` +
        "not read; it is kept in the file.",
    );
  return {
    memories,
    problems,
    ...(torn ? { tornLine: lines.length + 1 } : {}),
    kept: { lines: unread, tail: torn ? tail : "" },
  };
}

/** The file's text: the memories, then what was kept unread (`DecodedMemories.kept`), the torn tail last. */
export function encodeMemories(memories: readonly Memory[], kept?: DecodedMemories["kept"]): string {
  const text = memories.map((m) => JSON.stringify(m) + "\n").join("");
  if (kept === undefined) return text;
  return text + kept.lines.map((l) => l + "\n").join("") + kept.tail;
}

/** What makes two memories the same finding: kind, text and the files at their blobs (not who said it, or when). */
export function memoryContentKey(memory: Memory): string {
  const files = [...memory.files].map((f) => `${f.path}@${f.blob}`).sort();
  return JSON.stringify([memory.kind, memory.text.replace(/\s+/g, " ").trim(), files]);
}

/** `current` plus those of `incoming` that are new by id and by content, in order. */
export function mergeMemories(current: readonly Memory[], incoming: readonly Memory[]): Memory[] {
  const ids = new Set(current.map((m) => m.id));
  const keys = new Set(current.map(memoryContentKey));
  const merged = [...current];
  for (const memory of incoming) {
    const key = memoryContentKey(memory);
    if (ids.has(memory.id) || keys.has(key)) continue;
    ids.add(memory.id);
    keys.add(key);
    merged.push(memory);
  }
  return merged;
}
