const test = require("node:test");
const assert = require("node:assert");
const { parseConfig } = require("../src/config.js");
const { parseFlags } = require("../src/flags.js");

test("parseConfig skips blanks and comments", () =>
  assert.deepStrictEqual(parseConfig("# settings\n\na = 1\n  # off\nb = two\n"), { a: "1", b: "two" }));
test("parseFlags reads switches", () =>
  assert.deepStrictEqual(parseFlags(["--verbose", "--out", "x", "--dry"]), { verbose: true, out: "x", dry: true }));
