// Failures from a test command's output, read in code (no model): TAP (`not ok`), mocha's failure list,
// jest's `●` headers, pytest's `FAILED` lines and node:test's `✖`. Each failure carries the file:line places
// found in its own block of output (stack frames under node_modules or node: internals are skipped).
import type { FileRef } from "../protocol/board";

export interface TestFailure {
  readonly title: string;
  /** The first lines of the error, for the agent. */
  readonly detail: string;
  readonly refs: readonly FileRef[];
}

interface Header {
  readonly line: number;
  readonly title: string;
}

const refPattern = /(?:^|[\s(])((?:\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\.[A-Za-z]{1,5}):(\d+)(?::\d+)?/g;

/** file:line places mentioned in some lines (relative, outside node_modules), at most 5. */
export function refsInText(lines: readonly string[]): FileRef[] {
  const refs: FileRef[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    for (const m of line.matchAll(refPattern)) {
      const path = m[1].replace(/^\.\//, "");
      if (
        path.startsWith("/") ||
        path.startsWith("..") ||
        path.includes("node_modules/") ||
        line.includes("node:internal")
      )
        continue;
      const key = `${path}:${m[2]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      refs.push({ path, line: Number(m[2]) });
      if (refs.length === 5) return refs;
    }
  }
  return refs;
}

function headerAt(
  lines: readonly string[],
  i: number,
  inMochaList: boolean,
): { header: Header; skip: number } | undefined {
  const line = lines[i];
  let m = /^\s*not ok \d+ (?:- )?(.*?)(\s+#\s*(TODO|SKIP)\b.*)?$/i.exec(line);
  if (m !== null) return m[3] === undefined ? { header: { line: i, title: m[1].trim() }, skip: 0 } : undefined;
  m = /^\s*● (.+)$/.exec(line);
  if (m !== null && !/^Test suite failed to run/.test(m[1]))
    return { header: { line: i, title: m[1].trim() }, skip: 0 };
  m = /^FAILED (\S+?)(?: - (.*))?$/.exec(line);
  if (m !== null) return { header: { line: i, title: m[1] }, skip: 0 };
  m = /^\s*✖ (.+?)(?: \([\d.]+m?s\))?$/.exec(line);
  if (m !== null && !/^failing tests:?$/.test(m[1])) return { header: { line: i, title: m[1].trim() }, skip: 0 };
  m = /^\s*\d+\) (.+)$/.exec(line);
  if (m !== null && inMochaList) {
    // A mocha title spans lines (suite, nested suites, test) until one ends with ":".
    const parts = [m[1].trim()];
    let j = i;
    while (!parts[parts.length - 1].endsWith(":") && j + 1 < lines.length && lines[j + 1].trim() !== "" && j - i < 6) {
      parts.push(lines[++j].trim());
    }
    return { header: { line: i, title: parts.join(" ").replace(/:$/, "") }, skip: j - i };
  }
  return undefined;
}

/** Reads every failure in a test command's output (deduplicated by title, in order of appearance). */
export function parseTestFailures(output: string): TestFailure[] {
  const lines = output
    .replace(/\r\n?/g, "\n")
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n");
  const headers: Array<Header & { bodyStart: number }> = [];
  let inMochaList = false;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*\d+ failing\b/.test(lines[i])) inMochaList = true;
    const found = headerAt(lines, i, inMochaList);
    if (found === undefined) continue;
    headers.push({ ...found.header, bodyStart: i + found.skip + 1 });
    i += found.skip;
  }
  const failures: TestFailure[] = [];
  const seen = new Set<string>();
  headers.forEach((h, k) => {
    if (seen.has(h.title)) return;
    seen.add(h.title);
    const end = k + 1 < headers.length ? headers[k + 1].line : Math.min(lines.length, h.bodyStart + 40);
    const body = lines.slice(h.bodyStart, end);
    const detail = body
      .map((l) => l.trim())
      .filter((l) => l !== "" && !/^at /.test(l))
      .slice(0, 3)
      .join("\n");
    const inline = /^FAILED \S+ - (.*)$/.exec(lines[h.line]);
    failures.push({ title: h.title, detail: inline?.[1] ?? detail, refs: refsInText([lines[h.line], ...body]) });
  });
  return failures;
}
