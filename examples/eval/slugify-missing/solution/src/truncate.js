// The text cut to at most `max` characters, the last one an ellipsis when it was cut.
function truncate(text, max) {
  return text.length <= max ? text : text.slice(0, max - 1) + "…";
}

module.exports = { truncate };
