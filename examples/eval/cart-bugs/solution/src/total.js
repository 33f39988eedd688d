// The total price of a cart's items (price times quantity for each item).
function cartTotal(items) {
  let total = 0;
  for (const item of items) total += item.price * item.quantity;
  return total;
}

module.exports = { cartTotal };
