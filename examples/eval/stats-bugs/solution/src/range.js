// The spread of a list of numbers: its largest value less its smallest.
function range(values) {
  return Math.max(...values) - Math.min(...values);
}

module.exports = { range };
