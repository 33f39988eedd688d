// The trigger log's format (`triggers.jsonl`): one JSON object per line, each ending in "\n", like the board's.
// A crash can tear only the last line (no "\n", or cut mid-object): it is dropped on reopen and everything before
// it is kept. A bad line anywhere else is corruption, reported with its line number. Pure; the file is
// src/worker/standing/triggerLog.ts.
import { triggerLogLineSchema, type TriggerLogLine } from "../protocol/triggers";
import { formatZodIssues } from "../protocol/zodIssues";

export function encodeTriggerLine(line: TriggerLogLine): string {
  return JSON.stringify(line) + "\n";
}

export interface DecodedTriggerLog {
  readonly lines: TriggerLogLine[];
  /** The intact prefix of the text (the file is cut back to it). */
  readonly keptText: string;
  readonly torn?: { readonly line: number; readonly reason: string };
}

function parseLine(text: string): { line: TriggerLogLine } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { error: `not JSON: ${(e as Error).message}` };
  }
  const parsed = triggerLogLineSchema.safeParse(json);
  return parsed.success ? { line: parsed.data } : { error: formatZodIssues(parsed.error, "(line)") };
}

export function decodeTriggerLog(text: string, source: string): DecodedTriggerLog {
  const lines: TriggerLogLine[] = [];
  let start = 0;
  let lineNo = 0;
  while (start < text.length) {
    lineNo++;
    const end = text.indexOf("\n", start);
    if (end < 0)
      return { lines, keptText: text.slice(0, start), torn: { line: lineNo, reason: "no line end (torn write)" } };
    const result = parseLine(text.slice(start, end));
    if ("error" in result) {
      if (end + 1 === text.length)
        return { lines, keptText: text.slice(0, start), torn: { line: lineNo, reason: result.error } };
      throw new Error(
        `${source}: line ${lineNo} is not a valid trigger log line (${result.error}). Only the last line may be torn ` +
          "by a crash; restore the file from a copy or move it aside to start the swarm's triggers afresh.",
      );
    }
    lines.push(result.line);
    start = end + 1;
  }
  return { lines, keptText: text };
}
