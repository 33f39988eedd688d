// Money as text.
function fmt(amount) {
  return "$" + amount.toFixed(2);
}

function fmtList(amounts) {
  return amounts.map((a) => fmt(a)).join(", ");
}

module.exports = { fmt, fmtList };
