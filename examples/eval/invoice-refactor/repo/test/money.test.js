const test = require("node:test");
const assert = require("node:assert");
const { fmt, fmtList } = require("../src/money.js");

test("fmt", () => assert.strictEqual(fmt(3), "$3.00"));
test("fmtList", () => assert.strictEqual(fmtList([1, 2.5]), "$1.00, $2.50"));
