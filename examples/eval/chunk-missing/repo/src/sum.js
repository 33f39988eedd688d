// The sum of a list of numbers.
function sum(values) {
  return values.reduce((a, b) => a + b, 0);
}

module.exports = { sum };
