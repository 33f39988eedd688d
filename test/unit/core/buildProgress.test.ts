// Runtime build lines as progress: make's and ninja's counters to a percentage, paths cut to the file.
import assert from "node:assert/strict";
import { buildProgressLine } from "../../../src/core/buildProgress";

describe("buildProgressLine", () => {
  it("reads make's percentage and keeps the file's name", () => {
    assert.deepEqual(buildProgressLine("[ 42%] Building CXX object ggml/src/CMakeFiles/ggml-base.dir/ggml.c.o"), {
      percent: 42,
      text: "Building CXX object ggml.c.o",
    });
  });
  it("turns ninja's step count into a percentage", () => {
    assert.deepEqual(buildProgressLine("[17/200] Linking CXX shared library bin/libllama.so"), {
      percent: 8,
      text: "Linking CXX shared library libllama.so",
    });
  });
  it("passes other lines through without a percentage, cut to a notification's length", () => {
    assert.deepEqual(buildProgressLine("[swarmboard runtime] cache miss: no build at /c/k"), {
      text: "[swarmboard runtime] cache miss: no build at k",
    });
    assert.equal(buildProgressLine("x".repeat(300)).text.length, 100);
  });
});
