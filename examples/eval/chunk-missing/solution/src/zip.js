// Pairs of the two lists' values at the same index, up to the shorter list's length.
function zip(a, b) {
  const length = Math.min(a.length, b.length);
  return Array.from({ length }, (_, i) => [a[i], b[i]]);
}

module.exports = { zip };
