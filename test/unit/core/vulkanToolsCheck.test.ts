// The Vulkan build refused before it starts when its shader compiler or headers are too old for this llama.cpp
// (Debian 12's glslc 2023.2 and headers 1.3.239, measured: the build failed at the flash-attention shaders after
// minutes), with what was found, why and what to do on that platform; ready with the versions when new enough.
import assert from "node:assert/strict";
import { checkBuildTools, type BuildToolFacts } from "../../../src/core/buildToolsCheck";
import { minVulkanHeaderVersion, type GlslcFacts, type VulkanHeaderFacts } from "../../../src/core/vulkanToolsCheck";

// What the probes find on Debian 12 with apt's glslc, libvulkan-dev and spirv-headers.
const bookwormGlslc: GlslcFacts = {
  path: "/usr/bin/glslc",
  from: "PATH",
  version: "shaderc 2023.2-1",
  cooperativeMatrix: false,
  error: "coopmat.comp:3: error: '#extension' : extension not supported: GL_KHR_cooperative_matrix",
};
const bookwormHeaders: VulkanHeaderFacts = {
  includeDir: "/usr/include",
  from: "the system",
  version: "1.3.239",
  headerVersion: 239,
};
const trixieGlslc: GlslcFacts = {
  path: "/home/u/.cache/swarmboard/vulkan-toolchain/trixie/glslc",
  from: "NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_GLSLC_EXECUTABLE",
  version: "shaderc 2025.2-1",
  cooperativeMatrix: true,
};
const trixieHeaders: VulkanHeaderFacts = {
  includeDir: "/home/u/.cache/swarmboard/vulkan-toolchain/trixie/root/usr/include",
  from: "NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_INCLUDE_DIR",
  version: "1.4.309",
  headerVersion: 309,
};
const bookworm: BuildToolFacts = {
  platform: "linux",
  arch: "x64",
  linuxFamily: "debian",
  compiler: "c++ 12.2.0",
  cmake: "3.25.1",
  npm: true,
  git: true,
  sourceBundled: true,
  glslc: bookwormGlslc,
  vulkanHeaders: bookwormHeaders,
  vulkanLibrary: true,
  spirvHeaders: true,
};

function refusal(facts: BuildToolFacts): string {
  const verdict = checkBuildTools(facts, "vulkan");
  assert.notEqual(verdict.kind, "ready");
  return verdict.kind === "ready" ? "" : verdict.text;
}

describe("checkBuildTools for Vulkan: glslc's cooperative matrix and the headers' version", () => {
  it("refuses Debian 12's glslc and headers, saying what was found, why and what to do", () => {
    const verdict = checkBuildTools(bookworm, "vulkan");
    assert.equal(verdict.kind, "too-old");
    if (verdict.kind !== "too-old") return;
    assert.deepEqual(verdict.problems, [
      "glslc (shaderc 2023.2-1, /usr/bin/glslc, on PATH) cannot compile GL_KHR_cooperative_matrix (it said: " +
        "coopmat.comp:3: error: '#extension' : extension not supported: GL_KHR_cooperative_matrix); the build needs " +
        "shaderc 2023.6 or later (glslang 13): ggml's flash-attention decode shaders use that extension on every " +
        "GPU, so the build would fail at them after minutes.",
      "the Vulkan headers (/usr/include, from the system) are 1.3.239; the build needs 1.3.272 or later " +
        "(ggml-vulkan.cpp uses VkPhysicalDeviceCooperativeMatrixFeaturesKHR, from 1.3.255, and vk::LayerSettingEXT, " +
        "from 1.3.272).",
    ]);
    assert.match(verdict.text, /^Cannot build the runtime for Vulkan on linux-x64: its tools are too old /);
    assert.match(verdict.text, /LunarG's Vulkan SDK \(1\.3\.275 or later: https:\/\/vulkan\.lunarg\.com\/sdk\/home\)/);
    assert.match(
      verdict.text,
      / newer glslc and headers: NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_GLSLC_EXECUTABLE=<path to glslc> NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_INCLUDE_DIR=<the folder holding vulkan\/vulkan\.h> swarmboard runtime build --gpu vulkan/,
    );
    assert.match(verdict.text, /Debian 13's glslc \(2025\.2\) and libvulkan-dev \(1\.4\.309\) work/);
    assert.match(
      verdict.text,
      /`\(eval "\$\(bash scripts\/vulkanToolchain\.sh\)" && node dist\/cli\/main\.js runtime build --gpu vulkan\)`/,
    );
    assert.match(verdict.text, /Nothing was built; the runtime you have keeps working\.$/);
  });

  it("is ready with Debian 13's glslc and headers given through the variables, and says their versions", () => {
    const verdict = checkBuildTools({ ...bookworm, glslc: trixieGlslc, vulkanHeaders: trixieHeaders }, "vulkan");
    assert.deepEqual(verdict, {
      kind: "ready",
      tools: "c++ 12.2.0, cmake 3.25.1, glslc shaderc 2025.2-1 (GL_KHR_cooperative_matrix), Vulkan headers 1.4.309",
    });
  });

  it("refuses an old glslc alone, naming the variable it came from", () => {
    const named = { ...bookwormGlslc, from: "NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_GLSLC_EXECUTABLE" };
    const text = refusal({ ...bookworm, glslc: named, vulkanHeaders: trixieHeaders });
    assert.match(
      text,
      /glslc \(shaderc 2023\.2-1, \/usr\/bin\/glslc, from NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_GLSLC_EXECUTABLE\)/,
    );
    assert.doesNotMatch(text, /the Vulkan headers \(/);
  });

  it("takes headers from 1.3.272 on, refuses 1.3.271", () => {
    const at = (headerVersion: number) => ({
      ...bookworm,
      glslc: trixieGlslc,
      vulkanHeaders: { ...bookwormHeaders, headerVersion, version: `1.3.${headerVersion}` },
    });
    assert.equal(minVulkanHeaderVersion, 272);
    assert.equal(checkBuildTools(at(272), "vulkan").kind, "ready");
    assert.match(
      refusal(at(271)),
      /the Vulkan headers \(\/usr\/include, from the system\) are 1\.3\.271; the build needs 1\.3\.272/,
    );
  });

  it("says when the glslc a variable names does not run, or its include folder has no vulkan_core.h", () => {
    const text = refusal({
      ...bookworm,
      glslc: {
        path: "/nowhere/glslc",
        from: "NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_GLSLC_EXECUTABLE",
        cooperativeMatrix: false,
      },
      vulkanHeaders: { includeDir: "/nowhere/include", from: "NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_INCLUDE_DIR" },
    });
    assert.match(
      text,
      /glslc \(\/nowhere\/glslc, from NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_GLSLC_EXECUTABLE\) does not run\./,
    );
    assert.match(
      text,
      /the Vulkan headers \(\/nowhere\/include, from NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_INCLUDE_DIR\) have no vulkan\/vulkan_core\.h\./,
    );
  });

  it("asks for the SPIR-V headers where the probe found none (Linux)", () => {
    const verdict = checkBuildTools(
      { ...bookworm, glslc: trixieGlslc, vulkanHeaders: trixieHeaders, spirvHeaders: false },
      "vulkan",
    );
    assert.equal(verdict.kind, "missing");
    if (verdict.kind !== "missing") return;
    assert.deepEqual(verdict.missing, [
      { what: "the SPIR-V headers (their CMake package)", install: "sudo apt-get install spirv-headers" },
    ]);
  });

  it("says what is missing and what is too old in one refusal", () => {
    const text = refusal({ ...bookworm, vulkanLibrary: false });
    assert.match(
      text,
      /missing the Vulkan loader library \(libvulkan\)\. Install it with:\n  sudo apt-get install libvulkan-dev\n/,
    );
    assert.match(text, /Also too old for this llama\.cpp:\n  - glslc \(shaderc 2023\.2-1/);
    assert.match(text, /then run the build again\. Nothing was built; the runtime you have keeps working\.$/);
  });

  it("says what to do on each platform family", () => {
    const advice = (facts: Partial<BuildToolFacts>) =>
      refusal({ ...bookworm, ...facts })
        .split("\n")
        .at(-2)!;
    assert.match(advice({ linuxFamily: "fedora" }), /^Run sudo dnf upgrade glslc vulkan-headers, or install LunarG's/);
    assert.match(advice({ linuxFamily: "arch" }), /^Run sudo pacman -Syu shaderc vulkan-headers, or install LunarG's/);
    assert.match(
      advice({ linuxFamily: "other" }),
      /^Upgrade glslc \(shaderc\) and the Vulkan headers with your distribution's/,
    );
    assert.match(
      advice({ platform: "darwin", xcodeTools: true }),
      /^Run brew upgrade shaderc vulkan-headers, or install LunarG's/,
    );
    assert.match(
      advice({ platform: "win32", msvc: true }),
      /^Install LunarG's Vulkan SDK \(1\.3\.275 or later: .*\): winget install KhronosGroup\.VulkanSDK/,
    );
  });

  it("asks nothing of glslc or the headers for a CPU build", () => {
    assert.equal(checkBuildTools(bookworm, "false").kind, "ready");
  });
});
