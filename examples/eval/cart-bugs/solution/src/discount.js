// A price after a percentage discount (percent from 0 to 100).
function applyDiscount(price, percent) {
  return price * (1 - percent / 100);
}

module.exports = { applyDiscount };
