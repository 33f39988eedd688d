// The runtime's seal (eslint-rules/runtimeSeal.mjs) through ESLint's own Node API with the project's real config:
// each fixture in test/fixtures/lint is linted as if it lived at a path inside src.
import assert from "node:assert/strict";
import { lintAs } from "./lintFixture";

describe("runtime seal lint rule", function () {
  this.timeout(60_000); // the first lint loads typescript-eslint

  it("fails an import of a local-engine file from src/runtime/remote", async () => {
    assert.deepEqual(await lintAs("remoteImportsLocal.ts", "src/runtime/remote/__fixture__.ts"), [
      "swarmboard/runtime-seal: src/runtime/remote/__fixture__ may not import src/runtime/local/swarmContext: " +
        "the remote engine shares only the port and the neutral runtime files with the local one.",
    ]);
  });

  it("fails an import of a remote-engine file from src/runtime/local", async () => {
    assert.deepEqual(await lintAs("localImportsRemote.ts", "src/runtime/local/__fixture__.ts"), [
      "swarmboard/runtime-seal: src/runtime/local/__fixture__ may not import src/runtime/remote/remoteContext: " +
        "the local engine shares only the port and the neutral runtime files with the remote one.",
    ]);
  });

  it("fails an engine's file in a neutral runtime file, and lets the factory open it", async () => {
    assert.deepEqual(await lintAs("neutralImportsLocal.ts", "src/runtime/__fixture__.ts"), [
      "swarmboard/runtime-seal: src/runtime/__fixture__ is neutral: it may not import the local engine's " +
        "src/runtime/local/localEngine (only engines.ts opens an engine).",
    ]);
    assert.deepEqual(await lintAs("neutralImportsLocal.ts", "src/runtime/engines.ts"), []);
  });

  it("fails a worker import past the port", async () => {
    assert.deepEqual(await lintAs("workerPastThePort.ts", "src/worker/__fixture__.ts"), [
      "swarmboard/runtime-seal: src/runtime/loadModel is inside the runtime: outside src/runtime import only its " +
        "port (src/runtime/port/), engines.ts, runtimeOwner.ts or modelServices.ts.",
    ]);
  });

  it("passes the port, the factory, the owner and the model services from the worker", async () => {
    assert.deepEqual(await lintAs("workerThroughThePort.ts", "src/worker/__fixture__.ts"), []);
  });

  it("passes the port and the neutral runtime files from the remote engine", async () => {
    assert.deepEqual(await lintAs("remoteImportsPort.ts", "src/runtime/remote/__fixture__.ts"), []);
  });
});
