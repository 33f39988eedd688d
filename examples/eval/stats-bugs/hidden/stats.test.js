const test = require("node:test");
const assert = require("node:assert");
const { median } = require("../src/median.js");
const { range } = require("../src/range.js");

test("median of an even list", () => assert.strictEqual(median([10, 2, 4, 8]), 6));
test("median sorts numbers as numbers", () => assert.strictEqual(median([10, 9, 1]), 9));
test("median of an odd list", () => assert.strictEqual(median([3, 1, 2]), 2));
test("range is the largest less the smallest", () => assert.strictEqual(range([3, 10, 4]), 7));
