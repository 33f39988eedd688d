// The total of an order in cents: each line's unit price (cents) times its quantity, summed.
function total(lines) {
  return lines.reduce((sum, line) => sum + line.unitCents, 0);
}

module.exports = { total };
