// An invoice's lines and total; a line's amount is quantity times unit price, rounded to cents.
function lineAmount(item) {
  return Math.round(item.quantity * item.unitPrice * 100) / 100;
}

function invoiceLines(items) {
  return items.map((item) => ({ name: item.name, amount: lineAmount(item) }));
}

function invoiceTotal(items) {
  const total = items.reduce((sum, item) => sum + lineAmount(item), 0);
  return Math.round(total * 100) / 100;
}

module.exports = { lineAmount, invoiceLines, invoiceTotal };
