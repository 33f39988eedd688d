const test = require("node:test");
const assert = require("node:assert");
const { readFileSync } = require("node:fs");
const path = require("node:path");
const invoice = require("../src/invoice.js");
const money = require("../src/money.js");

const items = [{ name: "pen", quantity: 3, unitPrice: 1.15 }, { name: "pad", quantity: 1, unitPrice: 2.5 }];
test("lineAmount is exported", () => assert.strictEqual(invoice.lineAmount(items[0]), 3.45));
test("the behaviour is kept", () => {
  assert.deepStrictEqual(invoice.invoiceLines(items).map((l) => l.amount), [3.45, 2.5]);
  assert.strictEqual(invoice.invoiceTotal(items), 5.95);
});
test("the line amount is computed in one place", () => {
  const source = readFileSync(path.join(__dirname, "../src/invoice.js"), "utf8");
  assert.strictEqual(source.split("quantity * item.unitPrice").length - 1, 1);
});
test("money names say what they do", () => {
  assert.deepStrictEqual(Object.keys(money).sort(), ["formatMoney", "formatMoneyList"]);
  assert.strictEqual(money.formatMoneyList([1, 2.5]), "$1.00, $2.50");
});
