// A test run that could not run is never a pass: exit 126/127, a missing runner, or a run that reports no test
// at all is "tests could not run"; a run that reported tests (read, or exit 0 in a format we cannot read) is not.
import assert from "node:assert/strict";
import { builtinRecipes } from "../../../src/core/recipeCatalog";
import { testsCouldNotRunText, whyTestsCouldNotRun } from "../../../src/core/testsCouldNotRun";
import { testFailureTasks } from "../../../src/worker/swarm/workspaceTasks";

const mochaPass = "\n  math\n    ✔ adds\n\n  1 passing (3ms)\n";

describe("core: a test run that could not run", () => {
  it("is exit 127 or 126, even with tests read", () => {
    assert.equal(whyTestsCouldNotRun("\n> mocha\n\nsh: 1: mocha: not found\n", 127)?.kind, "missing");
    assert.match(whyTestsCouldNotRun(mochaPass, 127)?.why ?? "", /exit 127/);
    assert.match(whyTestsCouldNotRun("", 126)?.why ?? "", /exit 126/);
  });

  it("is a missing runner, a failure with no test, or an explicit zero-test report when no test was read", () => {
    assert.equal(whyTestsCouldNotRun('npm error Missing script: "test"\n', 1)?.kind, "missing");
    assert.equal(whyTestsCouldNotRun("/usr/bin/python3: No module named pytest\n", 1)?.kind, "missing");
    assert.equal(whyTestsCouldNotRun("src/a.ts(1,1): error TS1005: ';' expected.\n", 2)?.kind, "failed-unread");
    assert.equal(whyTestsCouldNotRun("\n  0 passing (1ms)\n", 0)?.kind, "no-tests");
    assert.equal(whyTestsCouldNotRun("TAP version 13\n1..0\n# tests 0\n# pass 0\n", 0)?.kind, "no-tests");
    assert.equal(whyTestsCouldNotRun("===== no tests ran in 0.01s =====\n", 5)?.kind, "failed-unread");
    assert.equal(whyTestsCouldNotRun("   \n", 0)?.kind, "no-tests");
  });

  it("is not a run that reported tests", () => {
    assert.equal(whyTestsCouldNotRun(mochaPass, 0), undefined);
    assert.equal(whyTestsCouldNotRun("not ok 1 - adds\nok 2 - subtracts\n", 1), undefined);
    // A format we cannot read that exits 0 reported tests: its exit code stands.
    assert.equal(whyTestsCouldNotRun("ok  \texample.com/m\t0.01s\n", 0), undefined);
  });

  it("says so with the command's output", () => {
    const text = testsCouldNotRunText("exit 127: not found", "line 1\nsh: 1: mocha: not found\n");
    assert.match(text, /^tests could not run: exit 127: not found; its output ends:\nline 1\nsh: 1: mocha: not found$/);
    assert.match(testsCouldNotRunText("x", ""), /\(no output\)/);
  });

  it("gives the fix-failing-tests source no silent empty list: a run with no test says so", async () => {
    const recipe = builtinRecipes().get("fix-failing-tests")!;
    const output = "\n> mocha\n\n  0 passing (1ms)\n";
    const { tasks, note } = await testFailureTasks(recipe, async () => ({
      ran: true,
      exitCode: 0,
      output,
      truncated: false,
    }));
    assert.deepEqual(tasks, []);
    assert.match(note ?? "", /tests could not run: it reported no test at all; its output ends:\n[^]*0 passing/);
  });
});
