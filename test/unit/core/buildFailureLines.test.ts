// What a failed runtime build shows: its first error line and its last lines without node-llama-cpp's usage text
// and stack frames. The lines are from a real failure (a broken compiler, test/runtime/runtimeBuildFailure).
import assert from "node:assert/strict";
import { isBuildErrorLine, withoutBuildNoise } from "../../../src/core/buildFailureLines";

const failure = [
  "-- Performing Test CMAKE_HAVE_LIBC_PTHREAD - Failed",
  "CMake Error at /usr/share/cmake-3.25/Modules/CMakeTestCCompiler.cmake:70 (message):",
  "    cc: internal error: broken on purpose by the test",
  "-- Configuring incomplete, errors occurred!",
  "\u001b[31m✖\u001b[39m Failed to compile llama.cpp",
  "node-llama-cpp source download",
  "Download a release of `llama.cpp` and compile it",
  "Options:",
  "      --noBundle, --nb        Download a llama.cpp release only from GitHub  [boolean] [default: false]",
  "  -v, --version               Show version number  [boolean]",
  "SpawnError: Command npm run -s cmake-js-llama -- compile exited with code 1",
  "    at createError (file:///x/node_modules/node-llama-cpp/dist/utils/spawnCommand.js:34:20)",
  "    at ChildProcess.emit (node:events:524:28)",
  "[swarmboard runtime] FAILED: node-llama-cpp source download --gpu false failed (exit 1)",
];

describe("buildFailureLines", () => {
  it("finds the first error, not cmake's check results nor the builder's closing line", () => {
    assert.equal(failure.find(isBuildErrorLine), failure[1]);
    assert.equal(isBuildErrorLine(failure[0]!), false);
    assert.equal(isBuildErrorLine(failure.at(-1)!), false);
    assert.equal(isBuildErrorLine("ggml.c:12:3: error: 'x' undeclared"), true);
    assert.equal(isBuildErrorLine("make[2]: *** [ggml.c.o] Error 1"), true);
    assert.equal(isBuildErrorLine("[ 42%] Building CXX object ggml.c.o"), false);
  });

  it("leaves out the usage text, stack frames and colour codes, and keeps the rest in order", () => {
    assert.deepEqual(withoutBuildNoise(failure), [
      ...failure.slice(0, 4),
      "✖ Failed to compile llama.cpp",
      "SpawnError: Command npm run -s cmake-js-llama -- compile exited with code 1",
      "[swarmboard runtime] FAILED: node-llama-cpp source download --gpu false failed (exit 1)",
    ]);
  });
});
