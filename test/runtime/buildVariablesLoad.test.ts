// A worker started from a shell that still holds a compile's variables (NODE_LLAMA_CPP_CMAKE_OPTION_*, GGML_CUDA,
// what `swarmboard runtime build --gpu vulkan` with a newer glslc asks for) loads the patched build all the same:
// node-llama-cpp would otherwise look for a build folder named by their hash, find none, and run in copy mode
// (seen by the Vulkan build check before src/runtime/buildVariables.ts). The runtime probe (a trunk, two agents
// forked from it, stories260K) runs in a child with them set.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import type { ProbeReport } from "./packagedRuntimeProbe";
import { bundleRuntimeProbe } from "./runtimeProbeBundle";
import { repoRoot, sharedModelPath } from "./runtimeTestModels";

describe("the runtime loads the patched build with a compile's variables in its environment", function () {
  this.timeout(5 * 60_000);
  const root = repoRoot();
  const file = path.join(root, "out", "test", "runtime", "buildVariablesProbe.js");

  before(() => bundleRuntimeProbe(root, file));
  after(() => rmSync(file, { force: true }));

  it("runs on shared cells with them set (in copy mode before)", () => {
    const env = {
      ...process.env,
      NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_GLSLC_EXECUTABLE: "/opt/newer/glslc",
      NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_INCLUDE_DIR: "/opt/newer/include",
      GGML_CUDA: "1",
    };
    const run = spawnSync(process.execPath, [file, sharedModelPath("stories260K.gguf")], {
      encoding: "utf8",
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    const output = `${run.stdout}${run.stderr}`;
    assert.equal(run.status, 0, `the probe failed:\n${output.slice(-4000)}`);
    const line = output.split("\n").find((l) => l.startsWith("PROBE "));
    assert.ok(line, `the probe printed no report:\n${output.slice(-4000)}`);
    const report = JSON.parse(line.slice("PROBE ".length)) as ProbeReport;
    assert.equal(report.build, "patched-local-build", output.slice(-2000));
    assert.doesNotMatch(output, /COPY MODE/);
  });
});
