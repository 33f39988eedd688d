// `swarmboard runtime build --gpu vulkan` on Debian 12 with what apt gives (glslc 2023.2, libvulkan-dev 1.3.239,
// spirv-headers; scripts/setup.sh --host-tests installs them): refused before anything compiles, saying that glslc
// lacks GL_KHR_cooperative_matrix and that the headers are 1.3.239, with what to do. Before this check the build ran
// for minutes and died at ggml's flash-attention shaders. Run as a user runs it (the built CLI) on an install like an
// unpacked extension's (runtimeBuildInstall.ts) with llama.cpp's source and an empty cache: the real probes, the real
// glslc compiling llama.cpp's feature test. The other half, Debian 13's glslc and headers through the build's
// variables passing the check and reaching cmake, needs scripts/vulkanToolchain.sh's download and runs in
// scripts/checkGpuVulkan.sh (test/gpu/vulkanBuildTools.test.ts).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { removeDir, tempDir } from "../unit/workspace/gitFixture";
import { freshInstall, llamaDirOf } from "./runtimeBuildInstall";

const debianGlslc = "/usr/bin/glslc";
const debianCore = "/usr/include/vulkan/vulkan_core.h";

/** The environment without any Vulkan choice of the caller's: the system's tools are what is probed. */
function systemEnv(cache: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith("NODE_LLAMA_CPP_CMAKE_OPTION_") && name !== "VULKAN_SDK",
    ),
  );
  return { ...env, SWARMBOARD_BUILD_CACHE: cache };
}

describe("swarmboard runtime build --gpu vulkan with Debian 12's glslc and headers: refused before compiling", function () {
  this.timeout(120_000);
  let dir: string;
  let root: string;
  let cache: string;

  before(function () {
    assert.equal(process.platform, "linux", "this test probes Debian 12's apt packages");
    const glslc = spawnSync(debianGlslc, ["--version"], { encoding: "utf8" });
    assert.ok(
      glslc.status === 0 && existsSync(debianCore),
      `Debian 12's glslc and Vulkan headers are missing (${debianGlslc}, ${debianCore}): ` +
        "apt-get install glslc libvulkan-dev spirv-headers (scripts/setup.sh --host-tests installs them)",
    );
    // The test is about these versions: a newer glslc or headers here would pass the check (and start a build).
    assert.match(glslc.stdout, /^shaderc 2023\.2/, `not Debian 12's glslc: ${glslc.stdout}`);
    assert.match(readFileSync(debianCore, "utf8"), /^#define VK_HEADER_VERSION 239$/m, "not Debian 12's headers");
    dir = tempDir("runtime-build-vulkan-refused");
    cache = path.join(dir, "cache");
    root = freshInstall(dir, { source: true });
  });

  after(() => removeDir(dir));

  function runtimeBuild(env: NodeJS.ProcessEnv) {
    const started = Date.now();
    const result = spawnSync(
      process.execPath,
      [path.join(root, "dist/cli/main.js"), "runtime", "build", "--gpu", "vulkan"],
      {
        env,
        encoding: "utf8",
        timeout: 90_000,
      },
    );
    return { ...result, seconds: (Date.now() - started) / 1000 };
  }

  function assertNothingStarted(): void {
    const llama = llamaDirOf(root);
    assert.ok(!existsSync(path.join(llama, "llama.cpp")), "llama.cpp's source was not even unpacked");
    assert.deepEqual(
      existsSync(path.join(llama, "localBuilds")) ? readdirSync(path.join(llama, "localBuilds")) : [],
      [],
    );
    assert.deepEqual(existsSync(cache) ? readdirSync(cache) : [], [], "the cache holds nothing, not even a log");
  }

  it("names cooperative matrix, the versions found, why and what to do, and builds nothing", () => {
    const result = runtimeBuild(systemEnv(cache));
    const said = result.stderr;
    assert.equal(result.status, 1, `${result.stdout}\n${said}`);
    assert.match(
      said,
      /^Cannot build the runtime for Vulkan on linux-x64: its tools are too old for this llama\.cpp\.\n/,
    );
    assert.match(
      said,
      /\n {2}- glslc \(shaderc 2023\.2-1, \/usr\/bin\/glslc, on PATH\) cannot compile GL_KHR_cooperative_matrix \(it said: coopmat\.comp:3: error: '#extension' : extension not supported: GL_KHR_cooperative_matrix\); the build needs shaderc 2023\.6 or later/,
    );
    assert.match(said, /flash-attention decode shaders/);
    assert.match(
      said,
      /\n {2}- the Vulkan headers \(\/usr\/include, from the system\) are 1\.3\.239; the build needs 1\.3\.272 or later/,
    );
    assert.match(said, /`\(eval "\$\(bash scripts\/vulkanToolchain\.sh\)" && node dist\/cli\/main\.js runtime build/);
    assert.match(said, /Nothing was built; the runtime you have keeps working\.\n$/);
    assert.equal(result.stdout, "", "no build line was printed");
    assertNothingStarted();
    console.log(`      (refused in ${result.seconds.toFixed(1)} s)\n${said.replace(/^/gm, "        | ")}`);
  });

  it("probes the glslc the build's variable names, not PATH's", () => {
    const env = { ...systemEnv(cache), NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_GLSLC_EXECUTABLE: debianGlslc };
    const result = runtimeBuild(env);
    assert.equal(result.status, 1, `${result.stdout}\n${result.stderr}`);
    assert.match(
      result.stderr,
      /- glslc \(shaderc 2023\.2-1, \/usr\/bin\/glslc, from NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_GLSLC_EXECUTABLE\) cannot compile GL_KHR_cooperative_matrix/,
    );
    const missing = {
      ...systemEnv(cache),
      NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_GLSLC_EXECUTABLE: path.join(dir, "no-glslc"),
    };
    const absent = runtimeBuild(missing);
    assert.equal(absent.status, 1, `${absent.stdout}\n${absent.stderr}`);
    assert.match(
      absent.stderr,
      /- glslc \(.*no-glslc, from NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_GLSLC_EXECUTABLE\) does not run\./,
    );
    assertNothingStarted();
  });
});
