const test = require("node:test");
const assert = require("node:assert");
const { cartTotal } = require("../src/total.js");
const { applyDiscount } = require("../src/discount.js");

test("an empty cart costs nothing", () => assert.strictEqual(cartTotal([]), 0));
test("no discount keeps the price", () => assert.strictEqual(applyDiscount(80, 0), 80));
