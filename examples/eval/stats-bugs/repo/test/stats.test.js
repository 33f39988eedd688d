const test = require("node:test");
const assert = require("node:assert");
const { median } = require("../src/median.js");
const { range } = require("../src/range.js");

test("median of an odd list", () => assert.strictEqual(median([3, 1, 2]), 2));
test("range of one value", () => assert.strictEqual(range([5]), 0));
