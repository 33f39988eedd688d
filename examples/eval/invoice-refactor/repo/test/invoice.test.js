const test = require("node:test");
const assert = require("node:assert");
const { invoiceLines, invoiceTotal } = require("../src/invoice.js");

const items = [{ name: "pen", quantity: 3, unitPrice: 1.15 }, { name: "pad", quantity: 1, unitPrice: 2.5 }];
test("invoice lines", () => assert.deepStrictEqual(invoiceLines(items).map((l) => l.amount), [3.45, 2.5]));
test("invoice total", () => assert.strictEqual(invoiceTotal(items), 5.95));
