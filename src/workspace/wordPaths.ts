// The paths a shell word can name once the shell has expanded it: `~` and `~user`, `$HOME`, `$PWD` and other
// variables, braces, globs against the real file system, and `..` both as text and through symlinks. Expansions
// whose value is unknown here (other variables, `$(...)`, `${...}`) become `*`, so the glob stands for any value
// they could have in that place. The words themselves are never allowed outright (the policy asks about them);
// this is what lets a secret behind them be denied.
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { expandBraces, expandGlob } from "./braceGlob";
import type { Word } from "./shellParse";

export interface WordScope {
  /** Where the command runs (the worktree); relative paths start here. */
  readonly cwd: string;
  /** The real home, for `~` and `$HOME`: judged as if the command could reach it. */
  readonly home: string;
}

export interface WordPaths {
  /** Absolute candidates, lexical and physical. */
  readonly paths: readonly string[];
  /** Something was too big to expand completely (many glob matches, `~user`): the caller must ask. */
  readonly incomplete?: string;
}

const escaped = (name: string) => name.replace(/[^A-Za-z0-9_]/g, "\\$&");

const KNOWN_VARIABLES = (scope: WordScope): Record<string, string> => ({ HOME: scope.home, PWD: scope.cwd });

/** The word's text with its expansions replaced by what is known of them. */
function substitute(word: Word, scope: WordScope): string {
  let text = word.text;
  const known = KNOWN_VARIABLES(scope);
  for (const e of word.expansions) {
    if (e.kind === "variable") {
      const value = known[e.name] ?? "*";
      text = text.replace(new RegExp(`\\$\\{${escaped(e.name)}\\}|\\$${escaped(e.name)}(?![A-Za-z0-9_])`), value);
    } else if (e.kind === "command") text = text.replace(/\$\([^]*\)|`[^`]*`/, "*");
    else if (e.kind === "parameter") text = text.replace(/\$\{[^}]*\}/, "*");
    else if (e.kind === "arithmetic") text = text.replace(/\$\(\([^]*\)\)/, "*");
  }
  return text;
}

/** `~`, `~/x` and `~user/x` at the start of a word or after `=` or `:`. */
function expandTilde(text: string, scope: WordScope): { text: string; incomplete?: string } {
  const m = /^~([A-Za-z0-9._-]*)(\/.*)?$/.exec(text);
  if (!m) return { text };
  if (m[1] === "" || m[1] === "+") return { text: (m[1] === "+" ? scope.cwd : scope.home) + (m[2] ?? "") };
  return { text: path.join("/home", m[1], m[2] ?? ""), incomplete: `'~${m[1]}' names another user's home` };
}

/** The longest existing prefix resolved through symlinks, with the rest appended. */
function physical(p: string): string {
  let head = p;
  const rest: string[] = [];
  while (head !== "/" && !existsSync(head)) {
    rest.unshift(path.basename(head));
    head = path.dirname(head);
  }
  try {
    return path.join(realpathSync(head), ...rest);
  } catch {
    return p;
  }
}

/** The candidate paths of one word (the value after `=` too, for `--file=x` and `NAME=x`). */
export function wordPaths(word: Word, scope: WordScope): WordPaths {
  const text = substitute(word, scope);
  const pieces = [text];
  const eq = text.indexOf("=");
  if (eq >= 0) pieces.push(text.slice(eq + 1));
  const paths = new Set<string>();
  let incomplete: string | undefined;
  for (const piece of pieces) {
    for (const braced of expandBraces(piece)) {
      const tilde = expandTilde(braced, scope);
      incomplete ??= tilde.incomplete;
      const absolute = path.resolve(scope.cwd, tilde.text);
      const globbed = expandGlob(absolute);
      if (globbed.capped) incomplete ??= `'${word.text}' matches too many files to check`;
      for (const p of globbed.paths) {
        paths.add(p);
        paths.add(physical(p));
      }
    }
  }
  return { paths: [...paths], ...(incomplete ? { incomplete } : {}) };
}
