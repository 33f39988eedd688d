import assert from "node:assert/strict";
import { parseCommandLine } from "../../../src/cli/args";
import { engineFlags, UsageError } from "../../../src/cli/flagParsing";
import { withoutApiKey } from "../../../src/protocol/engine";

const flags = (entries: Record<string, string>) => new Map(Object.entries(entries));

describe("cli: the engine flags", () => {
  it("takes a remote engine's URL, model and dialect, and its key from the environment only", () => {
    const { engine } = engineFlags(
      flags({
        "--engine": "remote",
        "--engine-url": "http://127.0.0.1:8080",
        "--engine-model": "qwen",
        "--engine-dialect": "openai",
      }),
      { SWARMBOARD_ENGINE_API_KEY: "sk-test" },
    );
    assert.deepEqual(engine, {
      kind: "remote",
      url: "http://127.0.0.1:8080",
      model: "qwen",
      dialect: "openai",
      apiKey: "sk-test",
      timeoutMs: 600_000,
      busyRetries: 8,
    });
    assert.equal(engine && "apiKey" in withoutApiKey(engine), false, "records and logs get the settings without it");
  });

  it("refuses what cannot name an engine, saying what is missing", () => {
    assert.throws(() => engineFlags(flags({ "--engine": "remote" }), {}), /needs --engine-url/);
    assert.throws(
      () => engineFlags(flags({ "--engine": "local", "--engine-url": "http://x:1" }), {}),
      /is for --engine remote/,
    );
    assert.throws(() => engineFlags(flags({ "--engine": "cloud" }), {}), UsageError);
    assert.throws(
      () => engineFlags(flags({ "--engine": "remote", "--engine-url": "ftp://x" }), {}),
      /http:\/\/ or https:\/\//,
    );
    assert.deepEqual(engineFlags(flags({}), {}), {}, "no flag: the local engine by default");
  });

  it("reads them on `run`", () => {
    const options = parseCommandLine([
      "run",
      "--goal",
      "g",
      "--engine",
      "remote",
      "--engine-url",
      "http://127.0.0.1:9",
    ]);
    assert.equal(options.command, "run");
    assert.equal(options.command === "run" ? options.engine?.kind : undefined, "remote");
  });
});
