// grep_board: search the whole board history, beyond what fits in an agent's context.
import type { BoardEntry, BoardQuery } from "../protocol/board";
import { globMatchesPath, pathAsGlob } from "./globs";
import { scopeTouches } from "./scopes";

export class BoardQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BoardQueryError";
  }
}

function compileRegex(query: BoardQuery): RegExp | undefined {
  if (query.regex === undefined || query.regex === "") return undefined;
  try {
    return new RegExp(query.regex, query.caseSensitive === true ? "u" : "iu");
  } catch (e) {
    throw new BoardQueryError(
      `grep_board: the regex ${JSON.stringify(query.regex)} does not compile (${(e as Error).message}); escape special characters or pass plain words.`,
    );
  }
}

/**
 * Which of `texts` the regex matches. The worker runs agents' patterns under a time limit (a pattern like `(a+)+$`
 * backtracks for minutes and would freeze every swarm of the shared worker); the plain match is for trusted patterns.
 */
export type TextMatch = (regex: RegExp, texts: readonly string[]) => readonly boolean[];

export const plainTextMatch: TextMatch = (regex, texts) => texts.map((t) => regex.test(t));

/** A query path without glob characters means "this file or folder and everything below it". */
function pathProbe(path: string): string {
  return /[*?[\]{}]/.test(path) ? path : pathAsGlob(path.replace(/^\.\//, ""));
}

function touchesPath(entry: BoardEntry, probe: string): boolean {
  return scopeTouches(entry.scope, probe) || entry.refs.some((r) => globMatchesPath(probe, r.path));
}

/** Entries matching every given filter, oldest first, the newest `limit` (default 50) of them. */
export function grepBoard(
  entries: readonly BoardEntry[],
  query: BoardQuery,
  match: TextMatch = plainTextMatch,
): BoardEntry[] {
  const regex = compileRegex(query);
  const kinds = query.kind === undefined ? undefined : new Set(Array.isArray(query.kind) ? query.kind : [query.kind]);
  const probe = query.path === undefined || query.path === "" ? undefined : pathProbe(query.path);
  const filtered = entries.filter(
    (e) =>
      (kinds === undefined || kinds.has(e.kind)) &&
      (query.author === undefined || e.author === query.author) &&
      (probe === undefined || touchesPath(e, probe)),
  );
  // The regex last, on what the other filters left, in one batch (one time limit for the whole query).
  const matched =
    regex === undefined
      ? undefined
      : match(
          regex,
          filtered.map((e) => e.text),
        );
  const hits = matched === undefined ? filtered : filtered.filter((_, i) => matched[i]);
  const limit = query.limit ?? 50;
  return hits.slice(Math.max(0, hits.length - limit));
}

/** One line per hit, for a tool result: `[id] KIND author @time scope: text (refs)`. */
export function renderBoardHits(hits: readonly BoardEntry[]): string {
  if (hits.length === 0) return "No board entries match.";
  return hits
    .map((e) => {
      const refs = e.refs.map((r) => (r.line === undefined ? r.path : `${r.path}:${r.line}`)).join(", ");
      return `[${e.id}] ${e.kind} ${e.author}: ${e.text}${refs === "" ? "" : ` (${refs})`}`;
    })
    .join("\n");
}
