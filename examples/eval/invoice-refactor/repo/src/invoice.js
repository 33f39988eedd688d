// An invoice's lines and total; a line's amount is quantity times unit price, rounded to cents.
function invoiceLines(items) {
  return items.map((item) => ({ name: item.name, amount: Math.round(item.quantity * item.unitPrice * 100) / 100 }));
}

function invoiceTotal(items) {
  let total = 0;
  for (const item of items) total += Math.round(item.quantity * item.unitPrice * 100) / 100;
  return Math.round(total * 100) / 100;
}

module.exports = { invoiceLines, invoiceTotal };
