// Words of the shell subset that shellParse.ts understands: quotes and escapes removed, expansions (`$VAR`,
// `${...}`, `$(...)`, backticks, `$((...))`) kept in their source form and listed, so the policy knows exactly
// what the shell will expand. Anything outside the subset throws Unparsed.

export type Expansion =
  | { readonly kind: "variable"; readonly name: string }
  /** `${...}` other than a plain `${NAME}`: defaults, lengths, indirection, @-transformations. */
  | { readonly kind: "parameter"; readonly body: string }
  | { readonly kind: "command"; readonly body: string }
  | { readonly kind: "arithmetic"; readonly body: string }
  | { readonly kind: "process"; readonly body: string };

export interface Word {
  /** The word as the shell would see it with quotes removed; expansions are kept in their source form. */
  readonly text: string;
  readonly expansions: readonly Expansion[];
}

/** A construct outside the subset; the parser reports it and the policy asks. */
export class Unparsed extends Error {}

const META = " \t\n;&|<>()";

/** Index just past the `close` matching the opener before `start`, skipping quoted text. */
export function matchClose(src: string, start: number, open: string, close: string): number {
  let depth = 1;
  for (let i = start; i < src.length; i++) {
    const c = src[i];
    if (c === "\\") i++;
    else if (c === "'") {
      const end = src.indexOf("'", i + 1);
      if (end < 0) break;
      i = end;
    } else if (c === '"') {
      i = matchClose(src, i + 1, "\u0000", '"') - 1;
    } else if (c === open) depth++;
    else if (c === close && --depth === 0) return i + 1;
  }
  throw new Unparsed(`unbalanced '${open === "\u0000" ? '"' : open}'`);
}

/** Reads a `$...` expansion at `i` (src[i] === "$"); returns it, its source text and the index after it. */
function readDollar(src: string, i: number): { exp: Expansion | null; raw: string; end: number } {
  const next = src[i + 1] ?? "";
  if (src.startsWith("$((", i)) {
    const end = matchClose(src, i + 2, "(", ")");
    return { exp: { kind: "arithmetic", body: src.slice(i + 3, end - 1) }, raw: src.slice(i, end), end };
  }
  if (next === "(") {
    const end = matchClose(src, i + 2, "(", ")");
    return { exp: { kind: "command", body: src.slice(i + 2, end - 1) }, raw: src.slice(i, end), end };
  }
  if (next === "{") {
    const end = matchClose(src, i + 2, "{", "}");
    const body = src.slice(i + 2, end - 1);
    const exp: Expansion = /^[A-Za-z_][A-Za-z0-9_]*$/.test(body)
      ? { kind: "variable", name: body }
      : { kind: "parameter", body };
    return { exp, raw: src.slice(i, end), end };
  }
  if (next === "'" || next === '"') throw new Unparsed("$'...' and $\"...\" quoting");
  const m = /^[A-Za-z_][A-Za-z0-9_]*|^[0-9@*#?$!-]/.exec(src.slice(i + 1));
  if (!m) return { exp: null, raw: "$", end: i + 1 };
  return { exp: { kind: "variable", name: m[0] }, raw: src.slice(i, i + 1 + m[0].length), end: i + 1 + m[0].length };
}

function readDoubleQuoted(src: string, i: number, out: { text: string; exps: Expansion[] }): number {
  for (; i < src.length; i++) {
    const c = src[i];
    if (c === '"') return i + 1;
    if (c === "\\" && '$`"\\\n'.includes(src[i + 1] ?? "")) {
      out.text += src[i + 1];
      i++;
    } else if (c === "$") {
      const d = readDollar(src, i);
      if (d.exp) out.exps.push(d.exp);
      out.text += d.raw;
      i = d.end - 1;
    } else if (c === "`") {
      i = readBacktick(src, i, out) - 1;
    } else out.text += c;
  }
  throw new Unparsed("unbalanced '\"'");
}

function readBacktick(src: string, i: number, out: { text: string; exps: Expansion[] }): number {
  const end = src.indexOf("`", i + 1);
  if (end < 0) throw new Unparsed("unbalanced '`'");
  out.exps.push({ kind: "command", body: src.slice(i + 1, end) });
  out.text += src.slice(i, end + 1);
  return end + 1;
}

export function readWord(src: string, i: number): { word: Word; end: number } {
  const out = { text: "", exps: [] as Expansion[] };
  while (i < src.length && !META.includes(src[i])) {
    const c = src[i];
    if (c === "\\") {
      if (src[i + 1] !== "\n") out.text += src[i + 1] ?? "";
      i += 2;
    } else if (c === "'") {
      const end = src.indexOf("'", i + 1);
      if (end < 0) throw new Unparsed('unbalanced "\'"');
      out.text += src.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      i = readDoubleQuoted(src, i + 1, out);
    } else if (c === "$") {
      const d = readDollar(src, i);
      if (d.exp) out.exps.push(d.exp);
      out.text += d.raw;
      i = d.end;
    } else if (c === "`") {
      i = readBacktick(src, i, out);
    } else {
      out.text += c;
      i++;
    }
  }
  return { word: { text: out.text, expansions: out.exps }, end: i };
}
