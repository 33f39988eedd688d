// Whether the runtime can be built, over a table of platform x GPU type x what the machine has: the tools it will
// use, or what is missing with the install command for that platform (and no build).
import assert from "node:assert/strict";
import { checkBuildTools, type BuildGpu, type BuildToolFacts } from "../../../src/core/buildToolsCheck";
import type { GlslcFacts, VulkanHeaderFacts } from "../../../src/core/vulkanToolsCheck";

// Debian 13's glslc and headers, as scripts/vulkanToolchain.sh sets them for the build (measured there).
const newGlslc: GlslcFacts = {
  path: "/cache/vulkan-toolchain/trixie/glslc",
  from: "NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_GLSLC_EXECUTABLE",
  version: "shaderc 2025.2-1",
  cooperativeMatrix: true,
};
const newHeaders: VulkanHeaderFacts = {
  includeDir: "/usr/include",
  from: "the system",
  version: "1.4.309",
  headerVersion: 309,
};

const debianFull: BuildToolFacts = {
  platform: "linux",
  arch: "x64",
  linuxFamily: "debian",
  compiler: "g++ 12.2.0",
  cmake: "3.25.1",
  npm: true,
  sourceBundled: true,
  nvcc: "12.4",
  glslc: newGlslc,
  vulkanHeaders: newHeaders,
  vulkanLibrary: true,
  spirvHeaders: true,
};
// A clone after npm ci carries llama.cpp's source (node-llama-cpp's git bundle); a packaged extension does not.
const debianBare: BuildToolFacts = {
  platform: "linux",
  arch: "x64",
  linuxFamily: "debian",
  npm: true,
  sourceBundled: true,
};
const fedoraBare: BuildToolFacts = {
  platform: "linux",
  arch: "arm64",
  linuxFamily: "fedora",
  npm: true,
  sourceBundled: true,
};
const packaged = { npm: true, git: true } as const;
const macFull: BuildToolFacts = {
  ...packaged,
  platform: "darwin",
  arch: "arm64",
  xcodeTools: true,
  compiler: "clang++ 15.0.0",
  cmake: "3.29.0",
};
// On macOS a clang on PATH without the command-line tools (the shim that asks to install them) does not count.
const macNoTools: BuildToolFacts = {
  ...packaged,
  platform: "darwin",
  arch: "arm64",
  compiler: "clang++",
  cmake: "3.29.0",
};
const winFull: BuildToolFacts = {
  ...packaged,
  platform: "win32",
  arch: "x64",
  msvc: true,
  cmake: "3.28.0",
  nvcc: "12.4",
};
const winNoMsvc: BuildToolFacts = {
  ...packaged,
  platform: "win32",
  arch: "x64",
  compiler: "g++ 13",
  cmake: "3.28.0",
};

/** The verdict in one line: ready + tools, or the install commands, or the refusal. */
function verdict(facts: BuildToolFacts, gpu: BuildGpu): string {
  const result = checkBuildTools(facts, gpu);
  if (result.kind === "ready") return `ready: ${result.tools}`;
  if (result.kind === "unsupported") return `unsupported: ${result.text}`;
  if (result.kind === "too-old") return `too old: ${result.problems.join(" | ")}`;
  return `missing: ${result.missing.map((m) => `${m.what} <- ${m.install}`).join(" | ")}`;
}

describe("checkBuildTools", () => {
  const table: ReadonlyArray<[string, BuildToolFacts, BuildGpu, string]> = [
    ["debian, CPU, all there", debianFull, "false", "ready: g++ 12.2.0, cmake 3.25.1"],
    ["debian, CUDA, all there", debianFull, "cuda", "ready: g++ 12.2.0, cmake 3.25.1, nvcc 12.4"],
    [
      "debian, Vulkan, all there",
      debianFull,
      "vulkan",
      "ready: g++ 12.2.0, cmake 3.25.1, glslc shaderc 2025.2-1 (GL_KHR_cooperative_matrix), Vulkan headers 1.4.309",
    ],
    [
      "debian, CPU, nothing",
      debianBare,
      "false",
      "missing: a C++ compiler <- sudo apt-get install build-essential | cmake (3.19 or later) <- sudo apt-get install cmake",
    ],
    [
      "debian, Vulkan, only the compiler and cmake",
      { ...debianBare, compiler: "g++ 12", cmake: "3.25" },
      "vulkan",
      "missing: the Vulkan shader compiler (glslc) <- sudo apt-get install glslc | the Vulkan headers <- sudo apt-get install " +
        "libvulkan-dev | the Vulkan loader library (libvulkan) <- sudo apt-get install libvulkan-dev",
    ],
    [
      "debian, CUDA, no nvcc",
      { ...debianFull, nvcc: undefined },
      "cuda",
      "missing: the CUDA toolkit (nvcc) <- sudo apt-get install nvidia-cuda-toolkit",
    ],
    [
      "fedora arm64, CPU, nothing",
      fedoraBare,
      "false",
      "missing: a C++ compiler <- sudo dnf install gcc-c++ make | cmake (3.19 or later) <- sudo dnf install cmake",
    ],
    [
      "unknown distribution, no cmake",
      { platform: "linux", arch: "x64", compiler: "g++ 9", ...packaged },
      "false",
      "missing: cmake (3.19 or later) <- install cmake with your distribution's package manager, or from https://cmake.org/download/",
    ],
    [
      "metal on linux",
      debianFull,
      "metal",
      "unsupported: Cannot build the runtime for Metal on linux-x64: Metal exists only on macOS.",
    ],
    [
      "macOS, Metal, tools there",
      macFull,
      "metal",
      "ready: Xcode command-line tools (clang++ 15.0.0), cmake 3.29.0, Metal (from the command-line tools)",
    ],
    ["macOS, CPU, no command-line tools", macNoTools, "false", "missing: a C++ compiler <- xcode-select --install"],
    [
      "macOS, nothing",
      { platform: "darwin", arch: "x64" },
      "false",
      "missing: a C++ compiler <- xcode-select --install | cmake (3.19 or later) <- brew install cmake | Node.js with " +
        "npm <- brew install node | git (to fetch llama.cpp's source) <- xcode-select --install",
    ],
    [
      "macOS, CUDA",
      macFull,
      "cuda",
      "unsupported: Cannot build the runtime for CUDA on darwin-arm64: CUDA does not run on macOS (Apple silicon uses Metal).",
    ],
    [
      "a packaged extension (no source bundle) without git",
      { ...debianFull, sourceBundled: false },
      "false",
      "missing: git (to fetch llama.cpp's source) <- sudo apt-get install git",
    ],
    [
      "windows, no npm",
      { ...winFull, npm: false },
      "false",
      "missing: Node.js with npm <- winget install OpenJS.NodeJS.LTS",
    ],
    ["windows, CUDA, all there", winFull, "cuda", "ready: MSVC build tools, cmake 3.28.0, nvcc 12.4"],
    [
      "windows, a g++ on PATH but no MSVC",
      winNoMsvc,
      "false",
      'missing: a C++ compiler <- winget install Microsoft.VisualStudio.2022.BuildTools --override "--add ' +
        'Microsoft.VisualStudio.Workload.VCTools --includeRecommended --passive"',
    ],
    [
      "windows, Vulkan, no SDK",
      winFull,
      "vulkan",
      "missing: the Vulkan shader compiler (glslc) <- winget install KhronosGroup.VulkanSDK | the Vulkan headers <- " +
        "winget install KhronosGroup.VulkanSDK | the Vulkan loader library (libvulkan) <- winget install KhronosGroup.VulkanSDK",
    ],
  ];
  for (const [name, facts, gpu, expected] of table) {
    it(name, () => assert.equal(verdict(facts, gpu), expected));
  }

  it("says each install command once, and that nothing was built", () => {
    const result = checkBuildTools(
      { ...packaged, platform: "win32", arch: "x64", msvc: true, cmake: "3.28" },
      "vulkan",
    );
    assert.equal(result.kind, "missing");
    if (result.kind !== "missing") return;
    assert.equal(result.text.match(/winget install KhronosGroup\.VulkanSDK/g)?.length, 1);
    assert.match(result.text, /^Cannot build the runtime for Vulkan on win32-x64: missing /);
    assert.match(result.text, /Nothing was built; the runtime you have keeps working\.$/);
  });
});
