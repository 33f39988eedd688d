// Every path an agent names is resolved here before any file is read or written: it must be relative, must not
// climb with `..`, must resolve (through every symlink, via the nearest existing parent for a new file) to a
// place inside the agent's worktree, and must not be protected. Protected names are compared the way the
// most forgiving file systems would (case-insensitive, trailing dots and spaces dropped, ignorable Unicode
// removed, 8.3 short names), so `.GIT/hooks` or `.git./hooks` is refused everywhere.
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import type { SecretLinkScope } from "./secretLinks";

export type PathRefusal = "invalid-args" | "outside-worktree" | "protected-path";

export class PathRefusedError extends Error {
  constructor(
    readonly code: PathRefusal,
    message: string,
  ) {
    super(message);
    this.name = "PathRefusedError";
  }
}

/** Top-level names an agent may never write (and `.git` not even read). */
export const DEFAULT_PROTECTED = [".git", ".vscode", ".devcontainer", ".swarmboard"] as const;

export interface ContainmentRules {
  /** Real path of the worktree root. */
  readonly root: string;
  /** Worktree-relative paths (files or folders) agents may not write: the defaults plus e.g. a hooks path. */
  readonly protectedPaths: readonly string[];
  /** Worktree-relative paths inside a protected folder that this agent may write (its own swarm's recipe). */
  readonly writableExceptions?: readonly string[];
  /** Links to the user's installed dependency folders (node_modules, .venv): read-only, never committed. */
  readonly dependencyLinks?: readonly string[];
  /** Whose secret files a hard link in the worktree may not reach (secretLinks.ts; default: the user's home). */
  readonly secrets?: SecretLinkScope;
}

export interface ResolvedPath {
  /** Absolute real path (for a new file: real parent + the names still to create). */
  readonly real: string;
  /** The same, relative to the worktree root, with `/` separators. */
  readonly rel: string;
  readonly exists: boolean;
}

const IGNORABLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF\u00AD]/g;

/** The form under which two names may be the same file on some file system. */
export function foldName(segment: string): string {
  const s = segment
    .normalize("NFC")
    .replace(IGNORABLE, "")
    .toLowerCase()
    .replace(/[. ]+$/, "");
  // 8.3 short names of dot-folders (".git" -> "GIT~1") on Windows file systems.
  return /^[a-z0-9]{1,6}~\d$/.test(s) ? `~short:${s.replace(/~\d$/, "")}` : s;
}

function isUnder(rel: string, prefix: string): boolean {
  const a = rel.split("/").map(foldName);
  const b = prefix.split("/").filter(Boolean).map(foldName);
  if (b.length === 0 || a.length < b.length) return false;
  return b.every(
    (seg, i) => seg === a[i] || (a[i].startsWith("~short:") && seg.replace(/^\./, "").startsWith(a[i].slice(7))),
  );
}

/** The protected entry `rel` falls under, if any (exceptions excluded). */
export function protectedBy(rel: string, rules: ContainmentRules): string | undefined {
  if (rules.writableExceptions?.some((e) => path.posix.normalize(e) === rel)) return undefined;
  return rules.protectedPaths.find((p) => isUnder(rel, p));
}

function checkSyntax(input: string): string[] {
  if (input.includes("\0"))
    throw new PathRefusedError("invalid-args", "The path contains a NUL byte: give a plain relative path.");
  if (input.trim() === "")
    throw new PathRefusedError(
      "invalid-args",
      "The path is empty: give a path relative to your worktree root, e.g. src/main.ts.",
    );
  if (path.isAbsolute(input) || /^[a-zA-Z]:/.test(input) || input.startsWith("~")) {
    throw new PathRefusedError(
      "outside-worktree",
      `${JSON.stringify(input)} is absolute: give a path relative to your worktree root.`,
    );
  }
  if (input.includes("\\"))
    throw new PathRefusedError(
      "invalid-args",
      `${JSON.stringify(input)} contains a backslash: use '/' between folders.`,
    );
  const segments = input.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.includes(".."))
    throw new PathRefusedError(
      "outside-worktree",
      `${JSON.stringify(input)} climbs out with '..': give a path inside your worktree without '..'.`,
    );
  return segments;
}

function inside(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** Resolves `input` inside the worktree, or throws PathRefusedError saying why not and what to do. */
export async function resolveInWorktree(
  input: string,
  access: "read" | "write",
  rules: ContainmentRules,
): Promise<ResolvedPath> {
  const segments = checkSyntax(input);
  const lexicalRel = segments.join("/");
  const guard = (rel: string) => {
    const hit = access === "write" || isUnder(rel, ".git") ? protectedBy(rel, rules) : undefined;
    if (hit !== undefined)
      throw new PathRefusedError(
        "protected-path",
        `${JSON.stringify(input)} is under ${hit}, which agents may not ${access === "write" ? "change" : "read"}.`,
      );
  };
  guard(lexicalRel);
  const link = access === "write" ? rules.dependencyLinks?.find((l) => isUnder(lexicalRel, l)) : undefined;
  if (link !== undefined)
    throw new PathRefusedError(
      "protected-path",
      `${JSON.stringify(input)} is under ${link}, a read-only link to the dependencies installed in the user's checkout: agents do not change installed packages (post a finding if one is missing).`,
    );
  // Walk up to the nearest existing entry, resolve it through every symlink, re-append what does not exist yet.
  let existing = segments.length;
  while (
    existing > 0 &&
    !(await lstat(path.join(rules.root, ...segments.slice(0, existing))).then(
      () => true,
      () => false,
    ))
  )
    existing--;
  const base = await realpath(path.join(rules.root, ...segments.slice(0, existing))).catch(() => {
    // lstat saw it but it does not resolve: a symlink to nothing, which a write would create wherever it points.
    throw new PathRefusedError(
      "outside-worktree",
      `${JSON.stringify(input)} is a symlink to a missing target: remove the link or name its target.`,
    );
  });
  const real = path.join(base, ...segments.slice(existing));
  if (!inside(rules.root, real)) {
    throw new PathRefusedError(
      "outside-worktree",
      `${JSON.stringify(input)} resolves to ${real}, outside your worktree (through a symlink): only files inside your worktree can be used.`,
    );
  }
  const rel = path.relative(rules.root, real).split(path.sep).join("/");
  guard(rel);
  return { real, rel, exists: existing === segments.length };
}
