const test = require("node:test");
const assert = require("node:assert");
const { sum } = require("../src/sum.js");

test("sum", () => assert.strictEqual(sum([1, 2, 3]), 6));
