const test = require("node:test");
const assert = require("node:assert");
const { slugify } = require("../src/slugify.js");
const { truncate } = require("../src/truncate.js");

test("slugify", () => assert.strictEqual(slugify("  Hello, World! 2026 "), "hello-world-2026"));
test("truncate a long text", () => assert.strictEqual(truncate("swarmboard", 6), "swarm…"));
test("truncate leaves a short text", () => assert.strictEqual(truncate("swarm", 6), "swarm"));
