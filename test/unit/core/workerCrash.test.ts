import assert from "node:assert/strict";
import { classifyWorkerExit } from "../../../src/core/workerCrash";

describe("classifyWorkerExit", () => {
  it("treats an ordinary exit or kill as a crash to restart within the budget", () => {
    assert.deepEqual(classifyWorkerExit(null, false), { kind: "crash" });
    assert.deepEqual(classifyWorkerExit("SIGKILL", false), { kind: "crash" });
    assert.deepEqual(classifyWorkerExit("SIGSEGV", true), { kind: "crash" });
  });

  it("reads SIGILL on the patched runtime as a binary built for a newer CPU, with the fallback and what to do", () => {
    const crash = classifyWorkerExit("SIGILL", false);
    assert.ok(crash.kind === "bad-binary", crash.kind);
    assert.match(crash.message, /SIGILL \(an illegal instruction\)/);
    assert.match(crash.message, /official binaries in COPY MODE/);
    assert.match(crash.message, /Restart Worker/);
  });

  it("stops trying when the official binaries die with SIGILL too", () => {
    const crash = classifyWorkerExit("SIGILL", true);
    assert.ok(crash.kind === "unsupported-cpu", crash.kind);
    assert.match(crash.message, /left stopped/);
  });
});
