// Glob intersection for claims: "could one file match both patterns?", answered without a file system.
//
// Supported subset (exact answers):
//   - `/` separates segments; a leading `./`, repeated `/` and a trailing `/` are normalised away
//     (a trailing `/` means "everything below": `src/` is `src/**`);
//   - `**` as a whole segment: zero or more segments;
//   - `*` inside a segment: any run of characters except `/`; `?`: one character except `/`;
//   - `{a,b}` alternatives (expanded, nested allowed, at most 64 alternatives);
//   - `\x`: the character x literally.
// Over-approximated (the answer may say "overlap" where none exists, never the reverse):
//   - `[...]` classes are read as `?`;
//   - braces without a top-level comma (`{1..3}`, `{a}`), a leading `!`, extglobs (`@(`, `!(`, `+(`, `*(`, `?(`),
//     and more than 64 alternatives make the whole glob `**` (it may touch anything).
// So the check is sound: when it says two globs are disjoint, no path matches both. Dotfiles are not special.

type Token = { readonly kind: "lit"; readonly char: string } | { readonly kind: "one" } | { readonly kind: "star" };
type Segment = { readonly kind: "globstar" } | { readonly kind: "tokens"; readonly tokens: readonly Token[] };
/** One alternative of a glob, as segments. */
type Pattern = readonly Segment[];

const maxAlternatives = 64;
const universal: Pattern = [{ kind: "globstar" }];

/** Splits `{a,b}` groups into alternatives; undefined when the braces are outside the subset. */
function expandBraces(glob: string): string[] | undefined {
  let depth = 0;
  let open = -1;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\") {
      i++;
    } else if (c === "{") {
      if (depth === 0) open = i;
      depth++;
    } else if (c === "}" && depth > 0) {
      depth--;
      if (depth === 0) return expandGroup(glob, open, i);
    }
  }
  return depth === 0 ? [glob] : undefined;
}

function expandGroup(glob: string, open: number, close: number): string[] | undefined {
  const inner = glob.slice(open + 1, close);
  const options: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === "," && depth === 0) {
      options.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  options.push(inner.slice(start));
  if (options.length < 2) return undefined;
  const out: string[] = [];
  for (const option of options) {
    const rest = expandBraces(glob.slice(0, open) + option + glob.slice(close + 1));
    if (rest === undefined) return undefined;
    out.push(...rest);
    if (out.length > maxAlternatives) return undefined;
  }
  return out;
}

function parseSegment(text: string): Segment {
  if (text === "**") return { kind: "globstar" };
  const tokens: Token[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\" && i + 1 < text.length) tokens.push({ kind: "lit", char: text[++i] });
    else if (c === "*") tokens.push({ kind: "star" });
    else if (c === "?") tokens.push({ kind: "one" });
    else if (c === "[") {
      const close = text.indexOf("]", i + 2);
      if (close < 0) tokens.push({ kind: "lit", char: c });
      else {
        tokens.push({ kind: "one" });
        i = close;
      }
    } else tokens.push({ kind: "lit", char: c });
  }
  return { kind: "tokens", tokens };
}

function parseAlternative(glob: string): Pattern {
  let text = glob.replace(/\/{2,}/g, "/");
  while (text.startsWith("./")) text = text.slice(2);
  if (text.endsWith("/")) text += "**";
  if (text === "" || text === ".") return universal;
  return text
    .split("/")
    .filter((s) => s !== "" && s !== ".")
    .map(parseSegment);
}

/** Parses a glob into alternatives; anything outside the subset becomes `**` (may touch anything). */
export function parseGlob(glob: string): readonly Pattern[] {
  if (glob.startsWith("!") || /[@!+*?]\(/.test(glob)) return [universal];
  const alternatives = expandBraces(glob);
  if (alternatives === undefined) return [universal];
  return alternatives.map(parseAlternative);
}

/** Escapes a literal path so that it can be read as a glob. */
export function escapeGlob(path: string): string {
  return path.replace(/[\\*?[\]{}!@+()]/g, (c) => "\\" + c);
}

/** A claimed path covers itself and, if it is a folder, everything below it. */
export function pathAsGlob(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return escapeGlob(trimmed) + "/**";
}

function tokenCanShareChar(a: Token, b: Token): boolean {
  return a.kind !== "lit" || b.kind !== "lit" || a.char === b.char;
}

/** Whether two segment patterns (no `/` inside) have a common string: a search over pairs of positions. */
function tokensIntersect(p: readonly Token[], q: readonly Token[]): boolean {
  const seen = new Set<number>();
  const stack: Array<[number, number]> = [[0, 0]];
  const width = q.length + 1;
  while (stack.length > 0) {
    const [i, j] = stack.pop() as [number, number];
    const key = i * width + j;
    if (seen.has(key)) continue;
    seen.add(key);
    if (i === p.length && j === q.length) return true;
    const a = p[i];
    const b = q[j];
    // A star may match nothing: step over it alone.
    if (a?.kind === "star") stack.push([i + 1, j]);
    if (b?.kind === "star") stack.push([i, j + 1]);
    // Both consume one common character; a star stays where it is.
    if (a !== undefined && b !== undefined && tokenCanShareChar(a, b)) {
      stack.push([a.kind === "star" ? i : i + 1, b.kind === "star" ? j : j + 1]);
    }
  }
  return false;
}

function segmentsIntersect(a: Segment, b: Segment): boolean {
  if (a.kind === "globstar" || b.kind === "globstar") return true;
  return tokensIntersect(a.tokens, b.tokens);
}

function patternsIntersect(p: Pattern, q: Pattern): boolean {
  const memo = new Map<number, boolean>();
  const width = q.length + 1;
  const go = (i: number, j: number): boolean => {
    const key = i * width + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    memo.set(key, false);
    let result: boolean;
    if (i === p.length && j === q.length) result = true;
    else if (p[i]?.kind === "globstar") result = go(i + 1, j) || (j < q.length && go(i, j + 1));
    else if (q[j]?.kind === "globstar") result = go(i, j + 1) || (i < p.length && go(i + 1, j));
    else result = i < p.length && j < q.length && segmentsIntersect(p[i], q[j]) && go(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return go(0, 0);
}

/** True when some path could match both globs (sound: false means no path matches both). */
export function globsIntersect(a: string, b: string): boolean {
  const left = parseGlob(a);
  const right = parseGlob(b);
  return left.some((p) => right.some((q) => patternsIntersect(p, q)));
}

/** Whether a concrete path matches a glob (exact inside the subset, generous outside it). */
export function globMatchesPath(glob: string, path: string): boolean {
  return globsIntersect(glob, escapeGlob(path.replace(/^\.\//, "")));
}
