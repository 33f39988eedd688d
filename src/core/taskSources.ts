// Task sources turned into tasks in code: the goal, test failures, TODO/FIXME comments and editor
// diagnostics. Filtering and deduplication happen here, before any model sees them.
import type { Diagnostic, Task, TaskEvent } from "../protocol/tasks";
import { parseTestFailures } from "./testFailures";

/** FNV-1a, 32 bits, as 8 hex digits: a short stable id from a task's key. */
export function stableHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

function task(
  kind: Task["kind"],
  prefix: string,
  key: string,
  title: string,
  detail: string,
  refs: Task["refs"] = [],
): Task {
  return {
    id: `${prefix}-${stableHash(key)}`,
    kind,
    title: title.length > 120 ? title.slice(0, 117) + "..." : title,
    detail,
    refs,
    key,
  };
}

export function taskFromGoal(goal: string): Task {
  const text = goal.trim().replace(/\s+/g, " ");
  return task("goal", "goal", `goal:${text}`, text, goal.trim());
}

export function tasksFromTestOutput(output: string, exitCode: number): Task[] {
  const failures = parseTestFailures(output);
  if (failures.length === 0 && exitCode !== 0) {
    // The command failed without any failure we can read (a crash, a compile error): one task for it all.
    const tail = output.trim().split("\n").slice(-15).join("\n");
    return [
      task("test-failure", "test", "test:(command failed)", `test command failed with exit code ${exitCode}`, tail),
    ];
  }
  return failures.map((f) =>
    task("test-failure", "test", `test:${f.title}`, `failing test: ${f.title}`, f.detail, [...f.refs]),
  );
}

// A TODO counts only after a comment marker, so `const TODO = 1` or "todo list" in prose is not work.
const todoPattern =
  /(?:\/\/|\/\*|^\s*\*|#|<!--|^\s*--|;)\s*(TODO|FIXME)\b(?:\([^)]*\))?[\s:-]*(.*?)\s*(?:\*\/|-->)?\s*$/;

export function tasksFromTodoComments(path: string, text: string): Task[] {
  const out: Task[] = [];
  const occurrences = new Map<string, number>();
  text.split(/\r?\n/).forEach((line, i) => {
    const m = todoPattern.exec(line);
    if (m === null) return;
    const what = m[2].trim() || "(no text)";
    // Keyed by text, not line number, so edits above the comment do not make it a new task.
    const base = `todo:${path}:${m[1]}:${what}`;
    const n = (occurrences.get(base) ?? 0) + 1;
    occurrences.set(base, n);
    out.push(
      task("todo", "todo", n === 1 ? base : `${base}#${n}`, `${m[1]} in ${path}: ${what}`, line.trim(), [
        { path, line: i + 1 },
      ]),
    );
  });
  return out;
}

const severityRank: Record<Diagnostic["severity"], number> = { error: 0, warning: 1, information: 2, hint: 3 };

export function tasksFromDiagnostics(
  diagnostics: readonly Diagnostic[],
  minSeverity: Diagnostic["severity"] = "error",
): Task[] {
  return diagnostics
    .filter((d) => severityRank[d.severity] <= severityRank[minSeverity])
    .map((d) => {
      const source = d.source === undefined ? "" : `${d.source}${d.code === undefined ? "" : ` ${d.code}`}: `;
      const key = `diag:${d.path}:${d.line}:${source}${d.message}`;
      return task("diagnostic", "diag", key, `${d.path}:${d.line} ${source}${d.message}`, d.message, [
        { path: d.path, line: d.line },
      ]);
    });
}

export interface TaskSourceOptions {
  /** Lowest diagnostic severity that becomes a task (default `error`). */
  readonly minDiagnosticSeverity?: Diagnostic["severity"];
}

/** Tasks from a batch of events, deduplicated by key (first one wins), in event order. */
export function tasksFromEvents(events: readonly TaskEvent[], options: TaskSourceOptions = {}): Task[] {
  const all = events.flatMap((e): Task[] => {
    switch (e.source) {
      case "goal":
        return [taskFromGoal(e.goal)];
      case "test-output":
        return tasksFromTestOutput(e.output, e.exitCode);
      case "file-text":
        return tasksFromTodoComments(e.path, e.text);
      case "diagnostics":
        return tasksFromDiagnostics(e.diagnostics, options.minDiagnosticSeverity);
    }
  });
  return dedupeTasks(all);
}

export function dedupeTasks(tasks: readonly Task[]): Task[] {
  const seen = new Set<string>();
  return tasks.filter((t) => (seen.has(t.key) ? false : (seen.add(t.key), true)));
}
