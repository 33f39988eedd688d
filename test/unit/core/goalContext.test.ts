// The goal with the editor's context: the file, the selected lines in a fence the selection cannot close, the
// file's errors one per line; a goal that would pass the limit is refused with both numbers.
import assert from "node:assert/strict";
import { goalWithContext, type EditorContext } from "../../../src/core/goalContext";

const context: EditorContext = {
  path: "src/stats.js",
  selection: { startLine: 2, endLine: 3, text: "const a = `x`;\nconst b = ```y```;\n" },
  errors: [{ line: 3, message: "Unexpected\n  token", source: "ts" }],
};

describe("goal with the editor's context", () => {
  it("writes the file, the selection fenced and the errors after the goal", () => {
    const result = goalWithContext(" Fix it ", context, { selection: true, errors: true }, 20_000);
    assert.ok(result.ok);
    assert.equal(
      result.goal,
      [
        "Fix it",
        "",
        "Context from the editor: the file src/stats.js.",
        "Selected lines 2-3:",
        "````",
        "const a = `x`;\nconst b = ```y```;",
        "````",
        "Errors reported in src/stats.js:",
        "- line 3: Unexpected token (ts)",
      ].join("\n"),
    );
  });

  it("leaves out what was not chosen", () => {
    const result = goalWithContext("Fix it", context, { selection: false, errors: false }, 20_000);
    assert.deepEqual(result, { ok: true, goal: "Fix it\n\nContext from the editor: the file src/stats.js." });
  });

  it("refuses a goal past the limit, saying its length and the limit", () => {
    const big = { ...context, selection: { startLine: 1, endLine: 900, text: "x".repeat(30_000) } };
    const result = goalWithContext("Fix it", big, { selection: true, errors: false }, 20_000);
    assert.equal(result.ok, false);
    assert.match(!result.ok ? result.reason : "", /is 30,\d{3} characters; a goal holds at most 20,000\. Select fewer/);
  });
});
