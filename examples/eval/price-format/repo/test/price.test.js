const test = require("node:test");
const assert = require("node:assert");
const { price } = require("../src/price.js");
const { total } = require("../src/total.js");

test("price of nothing", () => assert.strictEqual(price(0), "$0.00"));
test("total of one line of one", () => assert.strictEqual(total([{ unitCents: 250, quantity: 1 }]), 250));
