// Reads "key = value" lines into an object.
function parseConfig(text) {
  const config = {};
  for (const line of text.split("\n")) {
    // TODO: skip blank lines and comment lines (starting with #).
    const [key, value] = line.split("=");
    config[key.trim()] = value.trim();
  }
  return config;
}

module.exports = { parseConfig };
