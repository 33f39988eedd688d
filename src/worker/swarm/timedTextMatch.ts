// grep_board's regex runs in the worker's event loop, and a shared worker serves every swarm on the machine: an
// agent's pattern that backtracks without end (`(a+)+$` on a long run of a's) would freeze them all, and a
// RegExp cannot be interrupted from JavaScript. V8 can stop a script at a deadline, regex included, so the match
// runs as a script in a context of its own with a time limit; past it the agent gets a tool error that says so.
import vm from "node:vm";
import { BoardQueryError, type TextMatch } from "../../core/grepBoard";

/**
 * How long one grep_board query may take. A plain pattern takes about a millisecond per thousand entries
 * (20,000 entries: 24 ms measured), so this leaves room for boards far larger than a swarm writes, while a
 * runaway pattern holds the other swarms' steps up for at most this long.
 */
export const regexTimeLimitMs = 1_000;

const matchScript = new vm.Script("input.texts.map((text) => input.regex.test(text))");

/** A match that gives up after `limitMs` with a BoardQueryError naming the pattern, the limit and what to do. */
export function timedTextMatch(limitMs = regexTimeLimitMs): TextMatch {
  const context = vm.createContext({ input: undefined });
  return (regex, texts) => {
    context.input = { regex, texts };
    try {
      return matchScript.runInContext(context, { timeout: limitMs }) as boolean[];
    } catch (error) {
      if ((error as { code?: unknown }).code !== "ERR_SCRIPT_EXECUTION_TIMEOUT") throw error;
      throw new BoardQueryError(
        `grep_board: the regex ${JSON.stringify(regex.source)} ran past ${limitMs} ms on ${texts.length} entries ` +
          `and was stopped (nested repeats such as (a+)+ backtrack without end); search plain words or a simpler pattern.`,
      );
    } finally {
      context.input = undefined;
    }
  };
}
