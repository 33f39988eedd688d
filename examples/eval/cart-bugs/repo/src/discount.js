// A price after a percentage discount (percent from 0 to 100).
function applyDiscount(price, percent) {
  return price - percent;
}

module.exports = { applyDiscount };
