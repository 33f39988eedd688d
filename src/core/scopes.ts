// When two scopes touch the same work: the rule behind claim conflicts and grep_board's path filter.
// A scope names a task, files (a path covers itself and everything below it) and/or globs.
// Two scopes overlap when they name the same task, or when some file could fall in both file sets.
// A scope with files and one with only a task (or vice versa) do not overlap unless the task ids match:
// they are different axes, and the claim rule refuses scopes that name neither.
import { scopeSchema, type Scope, type ScopeInput } from "../protocol/board";
import { globsIntersect, pathAsGlob } from "./globs";
import { formatZodIssues } from "../protocol/zodIssues";

export interface ScopeOverlap {
  readonly overlap: boolean;
  /** Why, for a person: "both claim task t-3", "src/a.ts is under src/", "globs src/** and src/x/*.ts intersect". */
  readonly reason: string;
}

/** The file patterns a scope covers, each with the words used to describe it. */
function filePatterns(scope: Scope): Array<{ glob: string; label: string }> {
  return [
    ...scope.paths.map((p) => ({ glob: pathAsGlob(normalizePath(p)), label: `path ${normalizePath(p)}` })),
    ...scope.globs.map((g) => ({ glob: g, label: `glob ${g}` })),
  ];
}

/** Validates a scope (defaults filled in); throws a readable error naming the bad part. */
export function parseScope(scope: ScopeInput): Scope {
  const parsed = scopeSchema.safeParse(scope);
  if (!parsed.success) {
    const fields = formatZodIssues(parsed.error, "(scope)");
    throw new Error(`Scope is not valid (${fields}). Name workspace-relative paths, globs or a task id.`);
  }
  return parsed.data;
}

/** Workspace-relative path in one spelling: forward slashes, no `./`, no repeated or trailing `/`. */
export function normalizePath(path: string): string {
  let p = path.replace(/\\/g, "/").replace(/\/{2,}/g, "/");
  while (p.startsWith("./")) p = p.slice(2);
  return p.replace(/\/+$/, "");
}

/** True when the scope names nothing at all (claims refuse such a scope). */
export function isEmptyScope(scope: Scope): boolean {
  return scope.taskId === undefined && scope.paths.length === 0 && scope.globs.length === 0;
}

export function scopesOverlap(a: Scope, b: Scope): ScopeOverlap {
  if (a.taskId !== undefined && a.taskId === b.taskId) {
    return { overlap: true, reason: `both name task ${a.taskId}` };
  }
  for (const left of filePatterns(a)) {
    for (const right of filePatterns(b)) {
      if (globsIntersect(left.glob, right.glob)) {
        return { overlap: true, reason: `${left.label} and ${right.label} can name the same file` };
      }
    }
  }
  return { overlap: false, reason: "no common task or file" };
}

/** Whether a scope (or a list of file:line refs' paths) could touch a path or glob. */
export function scopeTouches(scope: Scope, pathOrGlob: string): boolean {
  const probe = { paths: [], globs: [pathOrGlob] } satisfies Scope;
  return scopesOverlap(scope, probe).overlap;
}

/** Human description of a scope, stable for prompts and logs. */
export function describeScope(scope: Scope): string {
  const parts: string[] = [];
  if (scope.taskId !== undefined) parts.push(`task ${scope.taskId}`);
  if (scope.paths.length > 0) parts.push(scope.paths.map(normalizePath).join(", "));
  if (scope.globs.length > 0) parts.push(scope.globs.join(", "));
  return parts.length > 0 ? parts.join("; ") : "(nothing)";
}
