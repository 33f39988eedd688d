// The layer rule (eslint-rules/layers.mjs) through ESLint's own Node API with the project's real config:
// each fixture in test/fixtures/lint is linted as if it lived at a path inside a layer.
import assert from "node:assert/strict";
import { lintAs } from "./lintFixture";

describe("layer lint rule", function () {
  this.timeout(60_000); // the first lint loads typescript-eslint

  it("fails `import * as vscode` in src/core", async () => {
    assert.deepEqual(await lintAs("coreImportsVscode.ts", "src/core/__fixture__.ts"), [
      "swarmboard/layers: `vscode` may be imported only under src/host.",
    ]);
  });

  it("fails node-llama-cpp outside src/runtime (in src/workspace and src/host)", async () => {
    for (const where of ["src/workspace/__fixture__.ts", "src/host/__fixture__.ts"]) {
      assert.deepEqual(await lintAs("llamaOutsideRuntime.ts", where), [
        "swarmboard/layers: `node-llama-cpp` may be imported only under src/runtime.",
      ]);
    }
  });

  it("fails simple-git outside src/workspace (git goes through the workspace's contained tools)", async () => {
    assert.deepEqual(await lintAs("gitOutsideWorkspace.ts", "src/worker/__fixture__.ts"), [
      "swarmboard/layers: `simple-git` may be imported only under src/workspace.",
    ]);
    assert.deepEqual(await lintAs("gitOutsideWorkspace.ts", "src/workspace/__fixture__.ts"), []);
  });

  it("allows node-llama-cpp in src/runtime", async () => {
    assert.deepEqual(await lintAs("llamaOutsideRuntime.ts", "src/runtime/__fixture__.ts"), []);
  });

  it("fails src/core importing ../runtime", async () => {
    assert.deepEqual(await lintAs("coreImportsRuntime.ts", "src/core/__fixture__.ts"), [
      "swarmboard/layers: core may not import runtime (src/core may import: protocol).",
    ]);
  });

  it("fails I/O modules in src/core", async () => {
    assert.deepEqual(await lintAs("coreImportsFs.ts", "src/core/__fixture__.ts"), [
      "swarmboard/layers: core must stay free of I/O: `node:fs` is not allowed here.",
    ]);
  });

  describe("the worker's floors (agent < swarm < standing, eval < the process files)", () => {
    const floorMessage = (from: string, to: string, allowed: string) =>
      `swarmboard/layers: worker/${from} may not import worker/${to}: the worker's floors import downwards only ` +
      `(worker/${from} may import: ${allowed}).`;

    it("fails an import from worker/swarm/ into worker/standing/", async () => {
      assert.deepEqual(await lintAs("swarmImportsStanding.ts", "src/worker/swarm/__fixture__.ts"), [
        floorMessage("swarm", "standing", "worker/agent"),
      ]);
    });

    it("fails an import from worker/agent/ into worker/swarm/", async () => {
      assert.deepEqual(await lintAs("agentImportsSwarm.ts", "src/worker/agent/__fixture__.ts"), [
        floorMessage("agent", "swarm", "no other floor"),
      ]);
    });

    it("passes standing/ importing swarm/ and agent/, and the same import that fails from swarm/", async () => {
      assert.deepEqual(await lintAs("standingImportsSwarm.ts", "src/worker/standing/__fixture__.ts"), []);
      assert.deepEqual(await lintAs("swarmImportsStanding.ts", "src/worker/standing/__fixture__.ts"), []);
    });

    it("passes a process file (src/worker/x.ts) importing every floor", async () => {
      assert.deepEqual(await lintAs("processImportsFloors.ts", "src/worker/__fixture__.ts"), []);
    });
  });

  it("passes the imports each layer is allowed", async () => {
    assert.deepEqual(await lintAs("coreImportsProtocol.ts", "src/core/__fixture__.ts"), []);
    assert.deepEqual(await lintAs("hostImportsVscode.ts", "src/host/__fixture__.ts"), []);
  });
});
