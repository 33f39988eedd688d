const test = require("node:test");
const assert = require("node:assert");
const { capitalize } = require("../src/capitalize.js");

test("capitalize", () => assert.strictEqual(capitalize("swarm"), "Swarm"));
