// What a stage hands to the stages that come after it: its agents' closing summaries and the findings they
// (and their sub-agents) posted. A chain's or DAG's next stage reads it in its brief, so each stage's output is
// the next one's input whatever the board's visibility (the recipe declared that flow).
import type { BoardEntry } from "../protocol/board";

export interface StageOutput {
  readonly stage: string;
  /** Each agent of the stage, with the summary it ended with. */
  readonly agents: ReadonlyArray<{ readonly id: string; readonly role: string; readonly summary: string }>;
  /** Findings of the stage's agents and their sub-agents, oldest first. */
  readonly findings: readonly BoardEntry[];
}

function findingLine(e: BoardEntry): string {
  const refs = e.refs.map((r) => (r.line ? `${r.path}:${r.line}` : r.path)).join(", ");
  return `- ${e.kind} by ${e.author}${refs ? ` (${refs})` : ""}: ${e.text}`;
}

/**
 * The input section of a brief, cut to `maxChars` by dropping the oldest lines first (it says how many and where
 * the rest is). Empty when there is nothing before this stage.
 */
export function stageInputText(outputs: readonly StageOutput[], maxChars: number): string {
  if (outputs.length === 0) return "";
  const lines = outputs.flatMap((o) => [
    `Stage ${o.stage}:`,
    ...o.agents.map((a) => `- ${a.id} (${a.role}) ended: ${a.summary}`),
    ...(o.findings.length === 0 ? ["- (no findings)"] : o.findings.map(findingLine)),
  ]);
  const head = "Your input, what the stages before yours left:";
  let cut = 0;
  let size = lines.reduce((n, l) => n + l.length + 1, 0);
  while (cut < lines.length && size > maxChars) size -= lines[cut++]!.length + 1;
  const note = cut > 0 ? [`(${cut} earlier lines cut to fit your share of the context; grep_board has them)`] : [];
  return [head, ...note, ...lines.slice(cut)].join("\n");
}
