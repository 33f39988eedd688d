// Triggers read from a commit in code: the TODO/FIXME lines it added (with their new line numbers), the files it
// touched, and the failing tests of a run at it.
import assert from "node:assert/strict";
import { testFailureTriggers, todoTriggersFromDiff, touchedFileTriggers } from "../../../src/core/commitTriggers";

const diff = [
  "diff --git a/src/a.js b/src/a.js",
  "--- a/src/a.js",
  "+++ b/src/a.js",
  "@@ -3,0 +4,2 @@ function a() {",
  "+  // TODO: handle the empty list",
  "+  return x;",
  "@@ -10 +12 @@",
  "-  // FIXME old",
  "+  // FIXME: overflow past 2^31",
  "diff --git a/gone.js b/gone.js",
  "--- a/gone.js",
  "+++ /dev/null",
  "@@ -1 +0,0 @@",
  "-// TODO: removed",
].join("\n");

describe("core: triggers from a commit", () => {
  it("takes the TODO/FIXME lines a commit added, where they now are, and not the removed ones", () => {
    const found = todoTriggersFromDiff(diff, "0123456789abcdef", 5);
    assert.deepEqual(
      found.map((t) => [t.source, t.path, t.line, t.fingerprint]),
      [
        ["todo-commit", "src/a.js", 4, "todo|src/a.js|TODO: handle the empty list"],
        ["todo-commit", "src/a.js", 12, "todo|src/a.js|FIXME: overflow past 2^31"],
      ],
    );
    assert.match(found[0]!.text, /added by 0123456789/);
  });

  it("one trigger per touched file, and none for a passing test run", () => {
    const touched = touchedFileTriggers(["src/a.js", "README.md"], "abc", "tidy", 5);
    assert.deepEqual(
      touched.map((t) => [t.source, t.path]),
      [
        ["user-commit", "src/a.js"],
        ["user-commit", "README.md"],
      ],
    );
    assert.deepEqual(testFailureTriggers("not ok 1 - x", 0, "abc", 5), []);
  });

  it("each failing test of a TAP run is a test-failure trigger named by its test", () => {
    const out = [
      "TAP version 13",
      "ok 1 - mean",
      "not ok 2 - median of even lists",
      "  ---",
      "  at src/stats.js:9:3",
      "  ...",
    ];
    const found = testFailureTriggers(out.join("\n"), 1, "abc", 5);
    assert.equal(found.length, 1);
    assert.equal(found[0]!.source, "test-failure");
    assert.match(found[0]!.test ?? "", /median of even lists/);
  });
});
