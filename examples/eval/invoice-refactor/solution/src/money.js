// Money as text.
function formatMoney(amount) {
  return "$" + amount.toFixed(2);
}

function formatMoneyList(amounts) {
  return amounts.map((a) => formatMoney(a)).join(", ");
}

module.exports = { formatMoney, formatMoneyList };
