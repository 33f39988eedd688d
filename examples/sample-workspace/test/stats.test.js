const test = require("node:test");
const assert = require("node:assert");
const { mean, median } = require("../src/stats.js");

test("mean", () => assert.strictEqual(mean([1, 2, 3]), 2));
test("median of an odd list", () => assert.strictEqual(median([3, 1, 2]), 2));
test("median of an even list", () => assert.strictEqual(median([10, 2, 4, 8]), 6));
