// The load hides a compile's variables from node-llama-cpp and gives them back, whether the load succeeds or throws.
import assert from "node:assert/strict";
import { isBuildVariable, withoutBuildVariables } from "../../../src/runtime/buildVariables";

describe("withoutBuildVariables", function () {
  const names = ["NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_GLSLC_EXECUTABLE", "GGML_CUDA"];
  afterEach(() => names.forEach((name) => delete process.env[name]));

  it("names the cmake-option prefix and ggml's build switches, not ggml's run-time variables", function () {
    assert.equal(isBuildVariable("NODE_LLAMA_CPP_CMAKE_OPTION_GGML_NATIVE"), true);
    assert.equal(isBuildVariable("GGML_VULKAN"), true);
    assert.equal(isBuildVariable("NODE_LLAMA_CPP_CMAKE_OPTION_"), false);
    assert.equal(isBuildVariable("GGML_VK_VISIBLE_DEVICES"), false, "read by ggml when it picks devices");
    assert.equal(isBuildVariable("PATH"), false);
  });

  it("hides them during the load and puts them back after it, also when it throws", async function () {
    process.env[names[0]!] = "/opt/glslc";
    process.env[names[1]!] = "1";
    const seen = await withoutBuildVariables(async () => names.map((name) => process.env[name]));
    assert.deepEqual(seen, [undefined, undefined]);
    assert.equal(process.env[names[0]!], "/opt/glslc");
    await assert.rejects(
      withoutBuildVariables(() => Promise.reject(new Error("no build loads"))),
      /no build loads/,
    );
    assert.equal(process.env[names[1]!], "1");
  });
});
