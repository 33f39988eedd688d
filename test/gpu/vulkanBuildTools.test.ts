// `swarmboard runtime build --gpu vulkan` with Debian 13's glslc and Vulkan headers given through the build's
// variables (scripts/vulkanToolchain.sh; checkGpuVulkan.sh sets them before this test), Debian 12's older glslc
// still first on PATH: the tool check passes and names the versions it will use, and cmake, configuring llama.cpp's
// Vulkan backend, finds the same (the headers' version; "GL_KHR_cooperative_matrix supported by glslc"). Measured:
// about 10 s to that point on 2 cores. Then Ctrl-C:
// the compile itself is the ~16 minutes checkGpuVulkan.sh spends on its own build, and the command builds the
// portable flavour, whose key differs from that build's (native), so no cache hit makes it cheap. Nothing is cached.
// The other half (Debian 12's tools refused) is in CI's runtime tier: test/runtime/runtimeBuildVulkanRefused.test.ts.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { removeDir, tempDir } from "../unit/workspace/gitFixture";
import { freshInstall, llamaDirOf } from "../runtime/runtimeBuildInstall";

const glslcVariable = "NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_GLSLC_EXECUTABLE";
const includeVariable = "NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_INCLUDE_DIR";

describe("swarmboard runtime build --gpu vulkan with Debian 13's glslc and headers through the variables", function () {
  this.timeout(600_000);
  let dir: string;
  let root: string;
  let cache: string;

  before(() => {
    const glslc = process.env[glslcVariable];
    const include = process.env[includeVariable];
    assert.ok(
      glslc !== undefined && include !== undefined && existsSync(glslc) && existsSync(path.join(include, "vulkan")),
      `${glslcVariable} and ${includeVariable} must name Debian 13's glslc and headers: run ` +
        '`eval "$(bash scripts/vulkanToolchain.sh)"` first (scripts/checkGpuVulkan.sh does)',
    );
    dir = tempDir("runtime-build-vulkan-tools");
    cache = path.join(dir, "cache");
    root = freshInstall(dir, { source: true });
  });

  after(() => removeDir(dir));

  it("passes the check, reaches cmake's Vulkan configure with those tools, and cancels leaving nothing", async () => {
    const cli = spawn(process.execPath, [path.join(root, "dist/cli/main.js"), "runtime", "build", "--gpu", "vulkan"], {
      env: { ...process.env, SWARMBOARD_BUILD_CACHE: cache },
    });
    let output = "";
    cli.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    cli.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => cli.on("close", (code) => resolve(code)));
    const started = Date.now();
    const configured = /GL_KHR_cooperative_matrix (not )?supported by glslc/;
    while (!configured.test(output)) {
      assert.equal(cli.exitCode, null, `the build ended before cmake tested glslc:\n${output.slice(-3000)}`);
      assert.ok(Date.now() - started < 480_000, `cmake did not test glslc within 480 s:\n${output.slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const seconds = (Date.now() - started) / 1000;
    cli.kill("SIGINT");
    const code = await exited;
    const tools = /\[swarmboard runtime\] building with (.*)/.exec(output)?.[1] ?? "";
    // What the check says it will use is what cmake uses: the variables' glslc (Debian 13's, shaderc 2025.2 when
    // measured) and headers (1.4.309 then), not Debian 12's glslc 2023.2 first on PATH nor its headers 1.3.239.
    const found = /glslc (shaderc \S+) \(GL_KHR_cooperative_matrix\), Vulkan headers (1\.\d+)\.(\d+)$/.exec(tools);
    assert.ok(found !== null, `the check did not say its glslc and headers:\n${output.slice(-3000)}`);
    assert.doesNotMatch(found[1]!, /^shaderc 2023\.2/);
    assert.ok(Number(found[3]) >= 272, `headers ${found[2]!}.${found[3]!} passed the check`);
    assert.match(output, /-- GL_KHR_cooperative_matrix supported by glslc/);
    const cmakeVulkan = /Found Vulkan: .*found version "([\d.]+)"/.exec(output)?.[1];
    assert.equal(cmakeVulkan, `${found[2]!}.${found[3]!}`, "cmake found the headers the check probed");
    assert.equal(code, 4, output.slice(-3000));
    assert.match(output, /The runtime build was cancelled; nothing was stored in the cache\./);
    assert.deepEqual(readdirSync(cache), ["logs"], "the cache holds no entry");
    assert.deepEqual(readdirSync(path.join(llamaDirOf(root), "localBuilds")), [], "no half-built folder");
    console.log(`      (building with ${tools}; cmake tested glslc after ${seconds.toFixed(1)} s)`);
  });
});
