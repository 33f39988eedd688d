const test = require("node:test");
const assert = require("node:assert");
const { formatCents } = require("cents-format");
const { price } = require("../src/price.js");
const { total } = require("../src/total.js");

test("price shows cents as dollars", () => assert.strictEqual(price(1234), "$12.34"));
test("price of a few cents", () => assert.strictEqual(price(5), "$0.05"));
test("price uses the installed formatter", () => assert.strictEqual(price(-199), `$${formatCents(-199)}`));
test("total counts each line's quantity", () =>
  assert.strictEqual(
    total([
      { unitCents: 250, quantity: 3 },
      { unitCents: 99, quantity: 2 },
    ]),
    948,
  ));
test("total of no lines", () => assert.strictEqual(total([]), 0));
