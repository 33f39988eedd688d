import assert from "node:assert/strict";
import { cpuVariantFromLogLine } from "../../../src/runtime/cpuVariant";

describe("cpuVariantFromLogLine", () => {
  it("names the variant library ggml loaded, on each platform's library suffix", () => {
    const dir = "/x/node_modules/node-llama-cpp/llama/localBuilds/linux-x64/Release";
    assert.equal(
      cpuVariantFromLogLine(`load_backend: loaded CPU backend from ${dir}/libggml-cpu-haswell.so\n`),
      "haswell",
    );
    assert.equal(cpuVariantFromLogLine("load_backend: loaded CPU backend from C:\\x\\ggml-cpu-sse42.dll"), "sse42");
    assert.equal(
      cpuVariantFromLogLine("load_backend: loaded CPU backend from /x/libggml-cpu-armv8.2_1.dylib"),
      "armv8.2_1",
    );
  });

  it("keeps the library path when it does not follow the variant naming, and ignores other lines", () => {
    assert.equal(cpuVariantFromLogLine("load_backend: loaded CPU backend from /x/libggml-cpu.so"), "/x/libggml-cpu.so");
    assert.equal(cpuVariantFromLogLine("load_backend: loaded RPC backend from /x/libggml-rpc.so"), undefined);
    assert.equal(cpuVariantFromLogLine("llama_model_loader: loaded meta data with 19 key-value pairs"), undefined);
  });
});
