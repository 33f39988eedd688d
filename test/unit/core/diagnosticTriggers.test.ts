// The editor's diagnostics as triggers: what appeared or changed is news, what stayed is not, what comes back
// after it was gone is news again with a new id; information and hints are never sent.
import assert from "node:assert/strict";
import { DiagnosticChanges, diagnosticFingerprint, diagnosticTriggerId } from "../../../src/core/diagnosticTriggers";

describe("core: diagnostics as triggers", () => {
  it("sends errors and warnings that appear or change, once each, with ids that count returns", () => {
    const changes = new DiagnosticChanges();
    const error = {
      line: 3,
      severity: "error" as const,
      message: "Type 'string' is not assignable",
      source: "ts",
      code: 2322,
    };
    const first = changes.look("src/a.ts", [error, { line: 1, severity: "hint", message: "unused" }], 10);
    const fingerprint = diagnosticFingerprint("src/a.ts", error);
    assert.deepEqual(first, [
      {
        id: diagnosticTriggerId(fingerprint, 1),
        source: "diagnostic",
        fingerprint,
        time: 10,
        path: "src/a.ts",
        line: 3,
        severity: "error",
        text: "ts 2322: Type 'string' is not assignable",
      },
    ]);
    assert.deepEqual(changes.look("src/a.ts", [{ ...error, line: 9 }], 11), [], "the same error moved is not news");
    const changed = changes.look("src/a.ts", [{ ...error, message: "Type 'number' is not assignable" }], 12);
    assert.equal(changed.length, 1, "a changed message is news");
    assert.deepEqual(changes.look("src/a.ts", [], 13), []);
    const back = changes.look("src/a.ts", [error], 14);
    assert.equal(back[0]?.id, diagnosticTriggerId(fingerprint, 2), "an error that came back is a new trigger");
    const warning = changes.look("src/b.ts", [{ line: 2, severity: "warning", message: "deprecated" }], 15);
    assert.equal(warning[0]?.severity, "warning", "warnings go too: the worker's rules decide whether they are noise");
  });
});
