// Reads command-line flags: "--name value" pairs, and "--name" alone (or before another flag) as a switch.
function parseFlags(argv) {
  const flags = {};
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1];
    if (next === undefined || next.startsWith("--")) {
      flags[argv[i].slice(2)] = true;
    } else {
      flags[argv[i].slice(2)] = next;
      i++;
    }
  }
  return flags;
}

module.exports = { parseFlags };
