const test = require("node:test");
const assert = require("node:assert");
const { formatMoney, formatMoneyList } = require("../src/money.js");

test("formatMoney", () => assert.strictEqual(formatMoney(3), "$3.00"));
test("formatMoneyList", () => assert.strictEqual(formatMoneyList([1, 2.5]), "$1.00, $2.50"));
