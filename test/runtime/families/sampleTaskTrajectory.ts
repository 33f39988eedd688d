// A realistic trajectory for the sample task (examples/sample-workspace): what an instruct model would do to
// fix median and add variance with its test. It reads the file, edits it with two search/replace blocks (one
// with a bug), runs the tests and sees them fail, fixes the bug, writes a multi-kilobyte test file, runs the
// tests again (passing), commits and merges, thinking before the calls that need it. Each family forces these
// calls, and the text before them, in its own syntax.
import type { ScriptedCall } from "../../../src/protocol/turnScript";

const oldMedian = `function median(values) {
  const sorted = [...values].sort();
  const mid = Math.floor(sorted.length / 2);
  // FIXME: wrong for even-length lists, and sort() compares as strings.
  return sorted[mid];
}`;
const newMedian = `function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0 ? (sorted[mid - 1] + sorted[mid]) / 2 : sorted[mid];
}`;
const buggyVariance = `// Population variance: the mean of the squared distances from the mean.
function variance(values) {
  const m = mean(values);
  return values.reduce((a, v) => a + (v - m), 0) / values.length;
}`;
const fixedLine = "  return values.reduce((a, v) => a + (v - m) ** 2, 0) / values.length;";

/** A thorough test file for variance: many cases, a few kilobytes, as a careful model writes it. */
function varianceTests(): string {
  const cases = Array.from({ length: 24 }, (_, i) => {
    const values = [i, i + 2, i + 4, i + 6];
    return `test("variance of an evenly spaced list starting at ${i}", () => {\n  assert.strictEqual(variance(${JSON.stringify(values)}), 5);\n});`;
  });
  return [
    'const test = require("node:test");',
    'const assert = require("node:assert");',
    'const { variance } = require("../src/stats.js");',
    "",
    'test("variance of a constant list is 0", () => assert.strictEqual(variance([4, 4, 4]), 0));',
    'test("variance of [1, 2, 3, 4] is 1.25", () => assert.strictEqual(variance([1, 2, 3, 4]), 1.25));',
    ...cases,
    "",
  ].join("\n");
}

export const varianceTestFile = varianceTests();

export function sampleTaskTrajectory(): ScriptedCall[] {
  return [
    {
      tool: "read_file",
      args: { path: "src/stats.js" },
      think: "The task is in src/stats.js: median is wrong for even-length lists. I will read the file first.",
    },
    {
      tool: "edit_file",
      think:
        "sort() without a comparator compares strings, and an even-length list needs the mean of its two middle " +
        "values. I will fix median, add variance next to it and export it, in one edit with two blocks.",
      args: {
        path: "src/stats.js",
        edits: [
          { search: oldMedian, replace: `${newMedian}\n\n${buggyVariance}` },
          { search: "module.exports = { mean, median };", replace: "module.exports = { mean, median, variance };" },
        ],
      },
    },
    { tool: "write_file", args: { path: "test/variance.test.js", content: varianceTestFile } },
    { tool: "run_command", args: { command: "npm test" } },
    {
      tool: "edit_file",
      think: "The variance tests fail: each distance from the mean must be squared before it is summed.",
      args: {
        path: "src/stats.js",
        edits: [{ search: "  return values.reduce((a, v) => a + (v - m), 0) / values.length;", replace: fixedLine }],
      },
    },
    { tool: "run_command", args: { command: "npm test" } },
    { tool: "commit", args: { message: "Fix median for even-length lists; add variance with its tests" } },
    { tool: "merge_progress", args: {} },
  ];
}
