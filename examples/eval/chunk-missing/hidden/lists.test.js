const test = require("node:test");
const assert = require("node:assert");
const { chunk } = require("../src/chunk.js");
const { zip } = require("../src/zip.js");

test("chunk", () => assert.deepStrictEqual(chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]));
test("chunk of nothing", () => assert.deepStrictEqual(chunk([], 3), []));
test("zip", () => assert.deepStrictEqual(zip([1, 2, 3], ["a", "b"]), [[1, "a"], [2, "b"]]));
