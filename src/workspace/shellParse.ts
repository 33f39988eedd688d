// A small parser for the part of POSIX shell / bash that agents' commands use: words with quotes and escapes,
// `$VAR`, `${...}`, `$(...)`, backticks, `<(...)`, redirects, pipes and the lists `;` `&&` `||` `&`.
// Anything else (subshells, groups, control flow, here-documents, functions, ANSI-C quotes, unbalanced quotes)
// is reported as unparsed, and the command policy asks the user about it rather than guessing.
// Why not a dependency: the policy must know exactly which subset it understood, and fail closed outside it.

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

export interface Redirect {
  readonly op: string;
  readonly target: Word;
}

export interface SimpleCommand {
  /** `NAME=value` words before the command name. */
  readonly assignments: readonly Word[];
  readonly argv: readonly Word[];
  readonly redirects: readonly Redirect[];
}

export interface Pipeline {
  readonly commands: readonly SimpleCommand[];
  /** The operator after this pipeline: `;`, `&&`, `||`, `&` or "" at the end. */
  readonly then: string;
}

export type ParseResult =
  { readonly ok: true; readonly pipelines: readonly Pipeline[] } | { readonly ok: false; readonly reason: string };

class Unparsed extends Error {}

type Token = { readonly type: "word"; readonly word: Word } | { readonly type: "op"; readonly op: string };

const OPERATORS = [
  "&&",
  "||",
  ";;",
  "|&",
  "&>>",
  "&>",
  ">>",
  ">|",
  "<<<",
  "<<",
  "<>",
  ">&",
  "<&",
  "|",
  ";",
  "&",
  "<",
  ">",
  "(",
  ")",
  "\n",
];
const REDIRECTS = new Set(["&>>", "&>", ">>", ">|", "<>", ">&", "<&", "<", ">"]);
const RESERVED = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "for",
  "while",
  "until",
  "do",
  "done",
  "case",
  "esac",
  "function",
  "select",
  "{",
  "}",
  "[[",
  "]]",
  "!",
  "coproc",
  "time",
]);
const META = " \t\n;&|<>()";

/** Index just past the `close` matching the opener before `start`, skipping quoted text. */
function matchClose(src: string, start: number, open: string, close: string): number {
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

function readWord(src: string, i: number): { word: Word; end: number } {
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

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === " " || c === "\t") {
      i++;
      continue;
    }
    if (c === "#") {
      while (i < src.length && src[i] !== "\n") i++;
      continue;
    }
    if ((c === "<" || c === ">") && src[i + 1] === "(") {
      const end = matchClose(src, i + 2, "(", ")");
      tokens.push({
        type: "word",
        word: { text: src.slice(i, end), expansions: [{ kind: "process", body: src.slice(i + 2, end - 1) }] },
      });
      i = end;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op) {
      tokens.push({ type: "op", op });
      i += op.length;
      continue;
    }
    const { word, end } = readWord(src, i);
    // A word of digits right before a redirect is its file descriptor (`2>`): fold it into the operator.
    const nextOp = OPERATORS.find((o) => src.startsWith(o, end));
    if (/^\d+$/.test(word.text) && word.expansions.length === 0 && nextOp && REDIRECTS.has(nextOp)) {
      tokens.push({ type: "op", op: word.text + nextOp });
      i = end + nextOp.length;
      continue;
    }
    tokens.push({ type: "word", word });
    i = end;
  }
  return tokens;
}

function parseTokens(tokens: Token[]): Pipeline[] {
  const pipelines: Pipeline[] = [];
  let commands: SimpleCommand[] = [];
  let cur: { assignments: Word[]; argv: Word[]; redirects: Redirect[] } = { assignments: [], argv: [], redirects: [] };
  const endCommand = () => {
    if (cur.argv.length === 0 && cur.assignments.length === 0 && cur.redirects.length === 0)
      throw new Unparsed("an empty command");
    commands.push(cur);
    cur = { assignments: [], argv: [], redirects: [] };
  };
  for (let t = 0; t < tokens.length; t++) {
    const tok = tokens[t];
    if (tok.type === "word") {
      if (cur.argv.length === 0 && RESERVED.has(tok.word.text))
        throw new Unparsed(`the shell keyword '${tok.word.text}'`);
      if (cur.argv.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(tok.word.text)) cur.assignments.push(tok.word);
      else cur.argv.push(tok.word);
      continue;
    }
    const op = tok.op.replace(/^\d+/, "");
    if (REDIRECTS.has(op)) {
      const target = tokens[++t];
      if (!target || target.type !== "word") throw new Unparsed(`a redirect '${tok.op}' without a target`);
      cur.redirects.push({ op: tok.op, target: target.word });
    } else if (op === "|" || op === "|&") {
      endCommand();
    } else if (op === "&&" || op === "||" || op === ";" || op === "&" || op === "\n") {
      if (op === "\n" && commands.length === 0 && cur.argv.length === 0 && cur.assignments.length === 0) continue;
      endCommand();
      pipelines.push({ commands, then: op === "\n" ? ";" : op });
      commands = [];
    } else {
      throw new Unparsed(`the operator '${tok.op}'`);
    }
  }
  if (cur.argv.length > 0 || cur.assignments.length > 0 || cur.redirects.length > 0 || commands.length > 0) {
    endCommand();
    pipelines.push({ commands, then: "" });
  }
  const last = pipelines[pipelines.length - 1];
  if (last && (last.then === "&&" || last.then === "||")) throw new Unparsed(`a trailing '${last.then}'`);
  return pipelines;
}

/** Parses a command line; `ok: false` says which construct is outside the subset this parser understands. */
export function parseShell(src: string): ParseResult {
  try {
    if (src.includes("\0")) throw new Unparsed("a NUL byte");
    const pipelines = parseTokens(tokenize(src));
    if (pipelines.length === 0) throw new Unparsed("an empty command line");
    return { ok: true, pipelines };
  } catch (err) {
    if (err instanceof Unparsed) return { ok: false, reason: `cannot parse ${err.message}` };
    throw err;
  }
}
