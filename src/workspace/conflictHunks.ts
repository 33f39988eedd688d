// Reads the conflict markers git leaves in a file (merge style: <<<<<<< ours ======= theirs >>>>>>>) into hunks,
// so a conflict goes back to an agent as data it can act on rather than as a wall of text.
import type { ConflictFile } from "../protocol/tools";

const MAX_HUNKS_PER_FILE = 20;
const MAX_SIDE_CHARS = 4000;

function cap(text: string): string {
  return text.length > MAX_SIDE_CHARS
    ? `${text.slice(0, MAX_SIDE_CHARS)}\n[... cut at ${MAX_SIDE_CHARS} characters]`
    : text;
}

export function parseConflictHunks(filePath: string, text: string): ConflictFile {
  const lines = text.split("\n");
  const hunks: ConflictFile["hunks"] = [];
  let i = 0;
  while (i < lines.length && hunks.length < MAX_HUNKS_PER_FILE) {
    if (!lines[i].startsWith("<<<<<<<")) {
      i++;
      continue;
    }
    const startLine = i + 1;
    const ours: string[] = [];
    const theirs: string[] = [];
    let side: "ours" | "base" | "theirs" = "ours";
    i++;
    while (i < lines.length && !lines[i].startsWith(">>>>>>>")) {
      const line = lines[i];
      if (line.startsWith("|||||||")) side = "base";
      else if (line.startsWith("=======") && side !== "theirs") side = "theirs";
      else if (side === "ours") ours.push(line);
      else if (side === "theirs") theirs.push(line);
      i++;
    }
    hunks.push({ startLine, ours: cap(ours.join("\n")), theirs: cap(theirs.join("\n")) });
    i++;
  }
  return { path: filePath, hunks };
}
