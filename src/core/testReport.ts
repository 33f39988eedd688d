// Which tests passed and which failed in one run of a test command, read in code from its output, and what a
// change did to them: the verify-before-merge gate compares the run on the agent's merged tree with the run on
// the integration branch and refuses only when a test that passed there fails now.
// Names must match across runs and between the passing and the failing lists, so mocha's spec tree is read
// whole (suite titles joined to the test title, as mocha's failure list names them); TAP, node:test and
// pytest name a test the same way in both lists.
import { parseTestFailures } from "./testFailures";

export interface TestReport {
  readonly exitCode: number;
  readonly passed: readonly string[];
  readonly failed: readonly string[];
}

/** A test that passed before and fails now; or the whole command, when it passed before and fails unread now. */
export interface TestComparison {
  readonly broken: readonly string[];
  /** Failing now and before (not this change's doing). */
  readonly stillFailing: readonly string[];
  /** Failing before, passing now. */
  readonly fixed: readonly string[];
}

const MOCHA_SUMMARY = /^\s*\d+ passing\b/;
const PASS_MARK = /^(\s*)[✔✓√] (.+?)(?: \(\d+(?:\.\d+)?m?s\))?$/;
const MOCHA_FAILED = /^(\s*)\d+\) (.+)$/;

/** Mocha's spec tree, above its "N passing" line: suites by indentation, ✔ passed, `N)` failed. */
function mochaTree(lines: readonly string[]): { passed: string[]; failed: string[] } {
  const end = lines.findIndex((l) => MOCHA_SUMMARY.test(l));
  const suites: Array<{ indent: number; title: string }> = [];
  const passed: string[] = [];
  const failed: string[] = [];
  for (const line of lines.slice(0, end)) {
    if (line.trim() === "") continue;
    const pass = PASS_MARK.exec(line);
    const fail = pass ? null : MOCHA_FAILED.exec(line);
    const indent = (pass?.[1] ?? fail?.[1] ?? /^\s*/.exec(line)![0]).length;
    while (suites.length > 0 && suites[suites.length - 1].indent >= indent) suites.pop();
    const full = (title: string) => [...suites.map((s) => s.title), title.trim()].join(" ");
    if (pass) passed.push(full(pass[2]));
    else if (fail) failed.push(full(fail[2]));
    else if (indent > 0) suites.push({ indent, title: line.trim() });
  }
  return { passed, failed };
}

/** Tests that passed, in formats that name them the way their failures are named. */
function passedOutsideMocha(lines: readonly string[]): string[] {
  const passed: string[] = [];
  for (const line of lines) {
    const tap = /^\s*ok \d+ (?:- )?(.*?)(\s+#\s*(TODO|SKIP)\b.*)?$/i.exec(line);
    if (tap && tap[3] === undefined) passed.push(tap[1].trim());
    const pytest = /^(\S+::\S+) PASSED\b/.exec(line);
    if (pytest) passed.push(pytest[1]);
    const mark = PASS_MARK.exec(line);
    if (mark) passed.push(mark[2].trim());
  }
  return passed;
}

/** The report of one run: every test read as passed or failed, deduplicated, in order. */
export function readTestReport(output: string, exitCode: number): TestReport {
  const lines = output
    .replace(/\r\n?/g, "\n")
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n");
  const unique = (xs: readonly string[]) => [...new Set(xs)];
  if (lines.some((l) => MOCHA_SUMMARY.test(l))) {
    const tree = mochaTree(lines);
    const listed = parseTestFailures(output).map((f) => f.title);
    return { exitCode, passed: unique(tree.passed), failed: unique([...tree.failed, ...listed]) };
  }
  const failed = unique(parseTestFailures(output).map((f) => f.title));
  return { exitCode, passed: unique(passedOutsideMocha(lines)).filter((t) => !failed.includes(t)), failed };
}

/** The whole command failing without a failure we could read, named as one test. */
export function commandFailedName(exitCode: number): string {
  return `(the test command failed with exit code ${exitCode} and no failing test could be read)`;
}

/**
 * What the change did: a test that passed before and fails now is broken. When the earlier run named no
 * passing test (a format we cannot read), every new failure counts as broken; a command that passed before and
 * now fails with no failure read is broken as a whole.
 */
export function compareTestReports(before: TestReport, after: TestReport): TestComparison {
  const failedBefore = new Set(before.failed);
  const passedBefore = new Set(before.passed);
  const knowsPasses = before.passed.length > 0;
  const broken = after.failed.filter((t) => (knowsPasses ? passedBefore.has(t) : !failedBefore.has(t)));
  if (after.exitCode !== 0 && after.failed.length === 0 && before.exitCode === 0)
    broken.push(commandFailedName(after.exitCode));
  return {
    broken,
    stillFailing: after.failed.filter((t) => failedBefore.has(t)),
    fixed: before.failed.filter((t) => !after.failed.includes(t) && (after.passed.includes(t) || after.exitCode === 0)),
  };
}
