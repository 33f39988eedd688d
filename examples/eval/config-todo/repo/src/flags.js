// Reads command-line flags: "--name value" pairs.
function parseFlags(argv) {
  const flags = {};
  for (let i = 0; i < argv.length; i += 2) {
    // TODO: a flag followed by another flag (or by nothing) is a switch: set it to true.
    flags[argv[i].slice(2)] = argv[i + 1];
  }
  return flags;
}

module.exports = { parseFlags };
