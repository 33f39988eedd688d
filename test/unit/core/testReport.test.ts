// Reading which tests passed and failed from a test command's output, and what a change did to them: the
// verify-before-merge gate refuses only when a test that passed on the integration branch fails now.
import assert from "node:assert/strict";
import { budgetLeftLine, shortDuration } from "../../../src/core/budgetLeft";
import { commandFailedName, compareTestReports, readTestReport } from "../../../src/core/testReport";
import { missingProgram } from "../../../src/worker/swarm/workspaceTasks";

// Real mocha 11 spec output (three tests, one nested suite), as `npm test` prints it.
const mochaOutput = `
> fixture@1.0.0 test
> mocha



  math
    ✔ adds
    1) multiplies
    inner
      2) subtracts
      ✔ divides (52ms)


  2 passing (63ms)
  2 failing

  1) math
       multiplies:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

5 !== 6

      at Context.<anonymous> (test/math.test.js:5:33)

  2) math
       inner
         subtracts:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
`;

describe("core: test reports (verify before merge)", () => {
  it("reads mocha's spec tree with suite titles, the way its failure list names the failures", () => {
    const report = readTestReport(mochaOutput, 2);
    assert.deepEqual(report.passed, ["math adds", "math inner divides"]);
    assert.deepEqual(report.failed, ["math multiplies", "math inner subtracts"]);
  });

  it("reads TAP and pytest passes and failures under the same names", () => {
    const tap = readTestReport("TAP version 13\nok 1 - adds\nnot ok 2 - subtracts\nok 3 - skipped # SKIP\n", 1);
    assert.deepEqual(tap.passed, ["adds"]);
    assert.deepEqual(tap.failed, ["subtracts"]);
    const py = readTestReport(
      "t.py::test_a PASSED [50%]\nt.py::test_b FAILED [100%]\nFAILED t.py::test_b - assert 1 == 2\n",
      1,
    );
    assert.deepEqual(py.passed, ["t.py::test_a"]);
    assert.deepEqual(py.failed, ["t.py::test_b"]);
  });

  it("calls a test broken only when it passed before and fails now", () => {
    const before = readTestReport(mochaOutput, 2);
    const after = {
      exitCode: 1,
      passed: ["math multiplies", "math inner divides"],
      failed: ["math adds", "math inner subtracts"],
    };
    const cmp = compareTestReports(before, after);
    assert.deepEqual(cmp.broken, ["math adds"]);
    assert.deepEqual(cmp.stillFailing, ["math inner subtracts"]);
    assert.deepEqual(cmp.fixed, ["math multiplies"]);
    const fine = compareTestReports(before, { exitCode: 0, passed: [...before.passed, ...before.failed], failed: [] });
    assert.deepEqual(fine.broken, []);
    assert.deepEqual(fine.fixed, ["math multiplies", "math inner subtracts"]);
  });

  it("counts a new failure as broken when the earlier run named no passing test, and a crash after a pass", () => {
    const unreadable = { exitCode: 1, passed: [], failed: ["old"] };
    assert.deepEqual(compareTestReports(unreadable, { exitCode: 1, passed: [], failed: ["old", "new"] }).broken, [
      "new",
    ]);
    const passedBefore = { exitCode: 0, passed: ["a"], failed: [] };
    assert.deepEqual(compareTestReports(passedBefore, { exitCode: 3, passed: [], failed: [] }).broken, [
      commandFailedName(3),
    ]);
  });

  it("tells a missing program from a failing test", () => {
    assert.equal(missingProgram("\n> mocha\n\nsh: 1: mocha: not found\n", 127), "sh: 1: mocha: not found");
    assert.equal(
      missingProgram("bash: line 1: pytest: command not found", 127),
      "bash: line 1: pytest: command not found",
    );
    assert.match(missingProgram("", 127) ?? "", /exit code 127/);
    assert.equal(missingProgram("  1) user lookup:\n     Error: user not found\n", 1), undefined);
  });
});

describe("core: the budget line on every tool result", () => {
  it("says time, tokens and steps compactly", () => {
    assert.equal(shortDuration(75_000), "1m15s");
    assert.equal(shortDuration(3_700_000), "1h1m");
    assert.equal(shortDuration(-5), "0s");
    assert.equal(
      budgetLeftLine({ timeLeftMs: 250_000, until: "fan-in", tokensLeft: 2840, stepsLeft: 33 }),
      "4m10s until fan-in, 2840 tokens, 33 steps",
    );
    assert.equal(budgetLeftLine({ until: "fan-in", tokensLeft: -3, stepsLeft: 0 }), "0 tokens, 0 steps");
  });
});
