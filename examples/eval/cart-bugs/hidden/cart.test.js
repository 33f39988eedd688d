const test = require("node:test");
const assert = require("node:assert");
const { cartTotal } = require("../src/total.js");
const { applyDiscount } = require("../src/discount.js");

test("cartTotal counts every item", () =>
  assert.strictEqual(cartTotal([{ price: 2, quantity: 3 }, { price: 5, quantity: 1 }]), 11));
test("a 25% discount takes a quarter off", () => assert.strictEqual(applyDiscount(200, 25), 150));
test("no discount keeps the price", () => assert.strictEqual(applyDiscount(80, 0), 80));
