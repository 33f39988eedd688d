// A goal with what the user was looking at: the file, the selected lines and the file's errors, written after the
// goal in plain words so every agent reads it in the trunk. Pure: the host gathers the editor's state.

export interface EditorContext {
  /** The file, relative to the swarm's workspace. */
  readonly path: string;
  /** 1-based, inclusive; absent when nothing is selected. */
  readonly selection?: { readonly startLine: number; readonly endLine: number; readonly text: string };
  /** The file's error diagnostics (1-based lines). */
  readonly errors: readonly { readonly line: number; readonly message: string; readonly source?: string }[];
}

/** What of the context goes into the goal. */
export interface ContextChoice {
  readonly selection: boolean;
  readonly errors: boolean;
}

export type GoalWithContext = { ok: true; goal: string } | { ok: false; reason: string };

function fence(text: string): string {
  // A fence longer than any backtick run in the text, so the selection cannot close it.
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return "`".repeat(longest + 1);
}

export function goalWithContext(
  goal: string,
  context: EditorContext,
  choice: ContextChoice,
  maxChars: number,
): GoalWithContext {
  const parts = [goal.trim(), "", `Context from the editor: the file ${context.path}.`];
  const selection = choice.selection ? context.selection : undefined;
  if (selection !== undefined) {
    const f = fence(selection.text);
    const lines =
      selection.startLine === selection.endLine
        ? `line ${selection.startLine}`
        : `lines ${selection.startLine}-${selection.endLine}`;
    parts.push(`Selected ${lines}:`, f, selection.text.replace(/\s+$/, ""), f);
  }
  if (choice.errors && context.errors.length > 0) {
    parts.push(`Errors reported in ${context.path}:`);
    for (const e of context.errors)
      parts.push(`- line ${e.line}: ${e.message.replace(/\s+/g, " ").trim()}${e.source ? ` (${e.source})` : ""}`);
  }
  const text = parts.join("\n");
  if (text.length > maxChars)
    return {
      ok: false,
      reason:
        `The goal with the editor's context is ${text.length.toLocaleString("en-US")} characters; a goal holds at ` +
        `most ${maxChars.toLocaleString("en-US")}. Select fewer lines, or launch with the file only.`,
    };
  return { ok: true, goal: text };
}
