// The spread of a list of numbers: its largest value less its smallest.
function range(values) {
  return Math.min(...values) - Math.max(...values);
}

module.exports = { range };
