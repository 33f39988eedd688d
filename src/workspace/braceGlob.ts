// Brace and glob expansion the way bash does it, against the real file system, for the command policy: a path
// is judged on what the shell will make of it (`.g?t/config`, `.{git,x}/config`). Quoting is not known here, so
// every `*`, `?`, `[` and `{a,b}` counts as active and dot files always match: a superset of the shell's answer,
// which is what a deny check needs. Too many matches is reported, and the policy then asks.
import { readdirSync } from "node:fs";
import path from "node:path";

/** `{a,b}` alternatives, nested and repeated; `{x..y}` sequences and lone braces stay as they are. */
export function expandBraces(text: string, limit = 256): string[] {
  const open = text.indexOf("{");
  if (open < 0) return [text];
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) {
      if (commas.length === 0) {
        return expandBraces(text.slice(i + 1), limit).map((rest) => text.slice(0, i + 1) + rest);
      }
      const bounds = [open, ...commas, i];
      const parts = bounds.slice(0, -1).map((b, k) => text.slice(b + 1, bounds[k + 1]));
      const head = text.slice(0, open);
      const out: string[] = [];
      for (const part of parts) {
        for (const rest of expandBraces(part + text.slice(i + 1), limit)) {
          out.push(head + rest);
          if (out.length >= limit) return out;
        }
      }
      return out;
    } else if (c === "," && depth === 1) commas.push(i);
  }
  return [text];
}

export const GLOB = /[*?[]/;

/** A glob segment as a regular expression (`*`, `?`, `[...]`, `[!...]`). */
export function segmentRegex(segment: string): RegExp {
  let re = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === "*") re += ".*";
    else if (c === "?") re += ".";
    else if (c === "[") {
      const end = segment.indexOf("]", i + 2);
      if (end < 0) re += "\\[";
      else {
        const body = segment
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\");
        re += `[${body}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  try {
    return new RegExp(`^${re}$`, "s");
  } catch {
    return /^.*$/s;
  }
}

export interface GlobResult {
  readonly paths: readonly string[];
  /** More than `limit` matches: the list is cut and the caller must not trust it as complete. */
  readonly capped: boolean;
}

/** Expands an absolute path's glob segments against the file system; a path without globs comes back as is. */
export function expandGlob(absolute: string, limit = 256): GlobResult {
  if (!GLOB.test(absolute)) return { paths: [absolute], capped: false };
  const segments = absolute.split("/").filter(Boolean);
  let current = ["/"];
  let capped = false;
  for (const segment of segments) {
    const next: string[] = [];
    for (const dir of current) {
      if (!GLOB.test(segment)) {
        next.push(path.join(dir, segment));
        continue;
      }
      let names: string[] = [];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      const re = segmentRegex(segment);
      for (const name of names) if (re.test(name)) next.push(path.join(dir, name));
    }
    if (next.length > limit) capped = true;
    current = next.slice(0, limit);
  }
  // No match: bash leaves the word as it is.
  return { paths: current.length > 0 ? current : [absolute], capped };
}
