const test = require("node:test");
const assert = require("node:assert");
const { parseConfig } = require("../src/config.js");
const { parseFlags } = require("../src/flags.js");

test("parseConfig", () => assert.deepStrictEqual(parseConfig("a = 1\nb = two"), { a: "1", b: "two" }));
test("parseFlags", () => assert.deepStrictEqual(parseFlags(["--out", "x"]), { out: "x" }));
