// The memory file's format: one memory (src/protocol/memory.ts) per line, each checked by its schema on read.
// Pure encode/decode; the file is written by src/workspace/repositoryMemory.ts.
// Memory is a convenience, not the record of a run: a line that cannot be read costs that memory only. A torn last
// line (a crash mid-write of an older writer, an editor) is dropped quietly; a bad line elsewhere is skipped and
// reported with its number so the user can see what was lost.
import { memorySchema, type Memory } from "../protocol/memory";
import { formatZodIssues } from "../protocol/zodIssues";

export interface DecodedMemories {
  readonly memories: Memory[];
  /** Lines that were skipped, each with its number and why. */
  readonly problems: string[];
  /** Set when the last line had no line end and was dropped. */
  readonly tornLine?: number;
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
  const seen = new Set<string>();
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    const parsed = parseLine(line);
    if (typeof parsed === "string")
      problems.push(`${source}: line ${i + 1} is not a memory and was skipped (${parsed}).`);
    else if (!seen.has(parsed.id)) {
      seen.add(parsed.id);
      memories.push(parsed);
    }
  });
  return { memories, problems, ...(tail.trim() === "" ? {} : { tornLine: lines.length + 1 }) };
}

export function encodeMemories(memories: readonly Memory[]): string {
  return memories.map((m) => JSON.stringify(m) + "\n").join("");
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
