// Reads "key = value" lines into an object; blank lines and comment lines (starting with #) are skipped.
function parseConfig(text) {
  const config = {};
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.trim().startsWith("#")) continue;
    const [key, value] = line.split("=");
    config[key.trim()] = value.trim();
  }
  return config;
}

module.exports = { parseConfig };
