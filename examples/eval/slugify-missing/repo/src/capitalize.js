// The text with its first letter in upper case.
function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

module.exports = { capitalize };
