// A recorded trigger stream (one JSON trigger a line) read into the inbox before the router starts. A bad line is
// told on the board with its file and line number and skipped; the others are taken, ids already taken skipped
// (so the same stream read again after a restart takes only what it had not).
import { readFile } from "node:fs/promises";

export async function ingestTriggerFiles(
  files: readonly string[],
  take: (raw: unknown) => Promise<unknown>,
  note: (text: string) => Promise<void>,
): Promise<void> {
  for (const file of files) {
    const lines = (await readFile(file, "utf8")).split("\n");
    const bad: string[] = [];
    for (const [i, text] of lines.entries()) {
      if (text.trim() === "") continue;
      try {
        await take(JSON.parse(text));
      } catch (error) {
        bad.push(`${file}:${i + 1}: ${(error as Error).message}`);
      }
    }
    if (bad.length > 0) await note(`${bad.length} trigger line(s) were not taken:\n${bad.slice(0, 20).join("\n")}`);
  }
}
