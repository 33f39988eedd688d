// The total price of a cart's items (price times quantity for each item).
function cartTotal(items) {
  let total = 0;
  for (let i = 1; i < items.length; i++) total += items[i].price * items[i].quantity;
  return total;
}

module.exports = { cartTotal };
