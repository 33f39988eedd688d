import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseSettings, settingKeys, settingsSchema } from "../../../src/protocol/settings";

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, "../../../../package.json"), "utf8")) as {
  contributes: { configuration: { properties: Record<string, { default: unknown }> } };
};
const properties = manifest.contributes.configuration.properties;

describe("settings schema", () => {
  it("covers exactly the settings package.json contributes", () => {
    assert.deepEqual(Object.keys(properties).sort(), settingKeys.map((k) => `swarmboard.${k}`).sort());
  });

  it("has the same defaults as package.json", () => {
    const fromManifest = Object.fromEntries(settingKeys.map((k) => [k, properties[`swarmboard.${k}`].default]));
    assert.deepEqual(settingsSchema.parse({}), fromManifest);
  });

  it("names each bad setting and says what to do", () => {
    const result = parseSettings({ maxAgents: 0, threads: "two" });
    assert.equal(result.ok, false);
    assert.ok(!result.ok);
    assert.equal(result.problems.length, 2);
    assert.match(result.problems[0], /^swarmboard\.maxAgents: .*Fix it in your settings/);
    assert.match(result.problems[1], /^swarmboard\.threads: /);
  });
});
