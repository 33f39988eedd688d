// Small statistics helpers.

function mean(values) {
  if (values.length === 0) throw new Error("mean of an empty list");
  return values.reduce((a, b) => a + b, 0) / values.length;
}

function median(values) {
  const sorted = [...values].sort();
  const mid = Math.floor(sorted.length / 2);
  // FIXME: wrong for even-length lists, and sort() compares as strings.
  return sorted[mid];
}

// TODO: add a variance(values) helper with a test.

module.exports = { mean, median };
