// The values in consecutive groups of `size` (the last group may be shorter).
function chunk(values, size) {
  const groups = [];
  for (let i = 0; i < values.length; i += size) groups.push(values.slice(i, i + size));
  return groups;
}

module.exports = { chunk };
