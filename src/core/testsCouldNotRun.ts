// A run of a test command that could not run is no verdict, never a pass: exit 126 or 127 (the shell could not
// start a program), a missing runner named in the output, or a run that reports no test at all (a failure with no
// test read, an explicit "0 tests", no output). Every place that judges a test run asks this first: the merge
// verifier, the tests after a save or a commit, the test-failure tasks, the eval judge.
// A run that exits 0 in a format we cannot read (say `go test`) still passes by its exit code: it reported tests.
import { readTestReport, type TestReport } from "./testReport";

/** The shell's or a runner's own word that a program is missing. */
const MISSING_LINE = [
  /^(?:\S+: )?(?:line )?\d*:? ?\S+: (?:command )?not found$/,
  /: Permission denied$/,
  /^npm (?:ERR!|error) Missing script:/,
  /^No module named '?pytest'?$|No module named pytest$/,
];

/** Summaries that say no test ran (mocha, TAP and node:test, pytest, jest, unittest, cargo, go). */
const NO_TESTS =
  /^\s*0 passing\b|^# tests 0$|^1\.\.0$|\bno tests ran\b|\bcollected 0 items\b|^No tests found|^Ran 0 tests\b|\brunning 0 tests\b|\[no test files\]/m;

/** The last lines of a run's output, for the person and the agent. */
export function outputTail(output: string, lines = 12, chars = 1_500): string {
  const tail = output.trimEnd().split("\n").slice(-lines).join("\n");
  return tail.length > chars ? `...${tail.slice(-chars)}` : tail;
}

/** The line that says a program is missing, or undefined. */
export function missingProgramLine(output: string): string | undefined {
  return output
    .split("\n")
    .map((l) => l.trim())
    .find((l) => MISSING_LINE.some((p) => p.test(l)));
}

export interface CouldNotRun {
  readonly why: string;
  /**
   * "missing": a program or the runner is missing (exit 126/127 or its line); "no-tests": it reported no test;
   * "failed-unread": it failed before any test was reported (a crash, a compile error: still work to do).
   */
  readonly kind: "missing" | "no-tests" | "failed-unread";
}

/**
 * Why this run is no test verdict ("tests could not run"), or undefined when it is one. Exit 126/127 always; a
 * missing-program line, a failure or an explicit zero-test summary only when no test at all could be read.
 */
export function whyTestsCouldNotRun(
  output: string,
  exitCode: number,
  report: TestReport = readTestReport(output, exitCode),
): CouldNotRun | undefined {
  if (exitCode === 127)
    return { kind: "missing", why: "exit 127: the test command or a program it runs was not found" };
  if (exitCode === 126)
    return { kind: "missing", why: "exit 126: the test command or a program it runs could not be executed" };
  if (report.passed.length + report.failed.length > 0) return undefined;
  const missing = missingProgramLine(output);
  if (missing !== undefined) return { kind: "missing", why: `its runner is missing (${missing})` };
  if (exitCode !== 0) return { kind: "failed-unread", why: `it failed (exit ${exitCode}) without reporting any test` };
  if (output.trim() === "") return { kind: "no-tests", why: "it printed nothing: no test was reported" };
  if (NO_TESTS.test(output)) return { kind: "no-tests", why: "it reported no test at all" };
  return undefined;
}

/** The one text every verdict uses: "tests could not run: why; output ends: ...". */
export function testsCouldNotRunText(why: string, output: string): string {
  const tail = outputTail(output);
  return `tests could not run: ${why}` + (tail === "" ? " (no output)" : `; its output ends:\n${tail}`);
}
