// Triggers read from a commit on the person's branch, in code: TODO/FIXME comments the commit added (from its
// zero-context diff), the files it touched (news for the agent whose thread they are), and the failures of the
// recipe's test command run at that commit. Pure: the git and the test run are the caller's.
import type { TriggerInput } from "../protocol/triggers";
import { parseTestFailures } from "./testFailures";

const todoPattern = /\b(TODO|FIXME)\b[:\s]*(.*)$/;

/** TODO/FIXME lines a commit added, from `git diff --unified=0 <old> <new>`. */
export function todoTriggersFromDiff(diff: string, commit: string, time: number): TriggerInput[] {
  const out: TriggerInput[] = [];
  let file: string | undefined;
  let line = 0;
  for (const text of diff.split("\n")) {
    if (text.startsWith("+++ ")) {
      file = text.startsWith("+++ b/") ? text.slice(6) : undefined;
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (hunk !== null) {
      line = Number(hunk[1]);
      continue;
    }
    if (!text.startsWith("+") || text.startsWith("+++")) continue;
    const todo = todoPattern.exec(text);
    if (file !== undefined && todo !== null) {
      const said = `${todo[1]}: ${todo[2]!.trim() || "(no text)"}`;
      out.push({
        source: "todo-commit",
        path: file,
        line,
        text: `${said} (added by ${commit.slice(0, 10)})`,
        fingerprint: `todo|${file}|${said}`,
        time,
      });
    }
    line++;
  }
  return out;
}

/** One trigger per file a commit touched. */
export function touchedFileTriggers(
  paths: readonly string[],
  commit: string,
  subject: string,
  time: number,
): TriggerInput[] {
  return paths.map((p) => ({
    source: "user-commit",
    path: p,
    text: `the person's commit ${commit.slice(0, 10)} "${subject}" changed ${p}`,
    fingerprint: `commit|${commit}|${p}`,
    time,
  }));
}

/** One trigger per failing test of a run at `commit`; the fingerprint is the test, so a test still failing later is the same event. */
export function testFailureTriggers(output: string, exitCode: number, commit: string, time: number): TriggerInput[] {
  if (exitCode === 0) return [];
  return parseTestFailures(output).map((f) => {
    const ref = f.refs[0];
    return {
      source: "test-failure",
      test: f.title.slice(0, 1_000),
      text: `failing at ${commit.slice(0, 10)}: ${f.title}\n${f.detail}`.slice(0, 8_000),
      fingerprint: `test|${f.title}|${f.detail.split("\n")[0] ?? ""}`.slice(0, 1_000),
      time,
      ...(ref !== undefined ? { path: ref.path, ...(ref.line !== undefined ? { line: ref.line } : {}) } : {}),
    };
  });
}
