// A small parser for the part of POSIX shell / bash that agents' commands use: words with quotes and escapes,
// `$VAR`, `${...}`, `$(...)`, backticks, `<(...)`, redirects, pipes and the lists `;` `&&` `||` `&`.
// Anything else (subshells, groups, control flow, here-documents, functions, ANSI-C quotes, unbalanced quotes)
// is reported as unparsed, and the command policy asks the user about it rather than guessing.
// Why not a dependency: the policy must know exactly which subset it understood, and fail closed outside it.
import { matchClose, readWord, Unparsed, type Word } from "./shellWords";

export type { Expansion, Word } from "./shellWords";

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
