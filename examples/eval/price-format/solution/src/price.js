// A price for the shop's pages: an amount in cents shown in dollars, "$12.34".
const { formatCents } = require("cents-format");

function price(cents) {
  return `$${formatCents(cents)}`;
}

module.exports = { price };
