// Whether the Vulkan shader compiler and headers found are new enough for the llama.cpp that node-llama-cpp 3.22.1
// bundles, and what to do when they are not. Found on Debian 12, whose glslc (shaderc 2023.2) and headers (1.3.239)
// are too old: the build ran for minutes before it failed. Pure; the probes are in
// src/worker/runtimeBuild/vulkanToolProbes.ts.
//
// - glslc must know GL_KHR_cooperative_matrix. llama.cpp's CMake tests for it (feature-tests/coopmat.comp) and turns
//   coopmat off when glslc lacks it, but vulkan-shaders-gen compiles the flash-attention decode shaders
//   (fa_decode_ph1/ph2) with it anyway and ggml-vulkan.cpp links fa_decode_ph1_cm1: the build dies at that shader.
//   The extension came with glslang 13 (shaderc 2023.6), from their histories.
// - The headers must have VkPhysicalDeviceCooperativeMatrixFeaturesKHR (Vulkan-Headers 1.3.255) and
//   vk::LayerSettingEXT (1.3.272), both used by ggml-vulkan.cpp without a version guard.
import type { LinuxFamily } from "./buildToolsCheck";

/** The oldest VK_HEADER_VERSION with both structures ggml-vulkan.cpp uses unguarded. */
export const minVulkanHeaderVersion = 272;
/** The oldest shaderc whose glslang knows GL_KHR_cooperative_matrix. */
export const minShaderc = "2023.6";

/** The variables node-llama-cpp passes to cmake: how a user picks a glslc and headers for the build. */
export const glslcVariable = "NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_GLSLC_EXECUTABLE";
export const includeVariable = "NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_INCLUDE_DIR";

/** The glslc the build will use, as CMake's FindVulkan picks it: the variable, then $VULKAN_SDK/bin, then PATH. */
export interface GlslcFacts {
  readonly path: string;
  /** Where it was found: the variable's name, "VULKAN_SDK" or "PATH". */
  readonly from: string;
  /** The first line of `glslc --version` ("shaderc 2023.2-1"); undefined when it does not run. */
  readonly version?: string;
  /** It compiled llama.cpp's feature-test shader (`#extension GL_KHR_cooperative_matrix : require`). */
  readonly cooperativeMatrix: boolean;
  /** glslc's first error line when that compile failed. */
  readonly error?: string;
}

/** The Vulkan headers the build will compile against. */
export interface VulkanHeaderFacts {
  readonly includeDir: string;
  readonly from: string;
  /** "1.3.239", from vulkan_core.h; undefined when the folder has no vulkan/vulkan_core.h. */
  readonly version?: string;
  /** VK_HEADER_VERSION (239). */
  readonly headerVersion?: number;
}

function whereFound(path: string, from: string): string {
  return from === "PATH" ? `${path}, on PATH` : `${path}, from ${from}`;
}

function glslcProblem(glslc: GlslcFacts): string | undefined {
  if (glslc.version === undefined) return `glslc (${whereFound(glslc.path, glslc.from)}) does not run.`;
  if (glslc.cooperativeMatrix) return undefined;
  return (
    `glslc (${glslc.version}, ${whereFound(glslc.path, glslc.from)}) cannot compile GL_KHR_cooperative_matrix ` +
    `(it said: ${glslc.error ?? "nothing"}); the build needs shaderc ${minShaderc} or later (glslang 13): ggml's ` +
    "flash-attention decode shaders use that extension on every GPU, so the build would fail at them after minutes."
  );
}

function headersProblem(headers: VulkanHeaderFacts): string | undefined {
  const where = whereFound(headers.includeDir, headers.from);
  if (headers.headerVersion === undefined) return `the Vulkan headers (${where}) have no vulkan/vulkan_core.h.`;
  if (headers.headerVersion >= minVulkanHeaderVersion) return undefined;
  return (
    `the Vulkan headers (${where}) are ${headers.version ?? headers.headerVersion}; the build needs 1.3.` +
    `${minVulkanHeaderVersion} or later (ggml-vulkan.cpp uses VkPhysicalDeviceCooperativeMatrixFeaturesKHR, from ` +
    "1.3.255, and vk::LayerSettingEXT, from 1.3.272)."
  );
}

/** What is too old or broken, one sentence each; empty when the build can use these. */
export function vulkanProblems(glslc: GlslcFacts | undefined, headers: VulkanHeaderFacts | undefined): string[] {
  return [glslc && glslcProblem(glslc), headers && headersProblem(headers)].filter((p) => p !== undefined);
}

const sdk = `LunarG's Vulkan SDK (1.3.275 or later: https://vulkan.lunarg.com/sdk/home)`;
const variables =
  `or give the build a newer glslc and headers: ${glslcVariable}=<path to glslc> ` +
  `${includeVariable}=<the folder holding vulkan/vulkan.h> swarmboard runtime build --gpu vulkan`;

/** What to do about an old glslc or old headers on this platform. */
export function vulkanUpgradeAdvice(platform: string, linuxFamily: LinuxFamily | undefined): string {
  if (platform === "win32") return `Install ${sdk}: winget install KhronosGroup.VulkanSDK, then open a new terminal.`;
  if (platform === "darwin") {
    return `Run brew upgrade shaderc vulkan-headers, or install ${sdk} and source its setup-env.sh (sets VULKAN_SDK).`;
  }
  const sdkLine = `install ${sdk} and source its setup-env.sh (it sets VULKAN_SDK), ${variables}.`;
  if (linuxFamily === "debian") {
    return (
      `On Debian 12 (glslc 2023.2, libvulkan-dev 1.3.239) both are too old: ${sdkLine} Debian 13's glslc (2025.2) ` +
      "and libvulkan-dev (1.4.309) work but its glslc needs Debian 13's glibc: from a Swarmboard clone, " +
      '`(eval "$(bash scripts/vulkanToolchain.sh)" && node dist/cli/main.js runtime build --gpu vulkan)` unpacks ' +
      "them, without installing, under ~/.cache/swarmboard/vulkan-toolchain and builds with them (what Swarmboard's " +
      "own Vulkan check does). " +
      "On a newer release, sudo apt-get install glslc libvulkan-dev."
    );
  }
  if (linuxFamily === "fedora") return `Run sudo dnf upgrade glslc vulkan-headers, or ${sdkLine}`;
  if (linuxFamily === "arch") return `Run sudo pacman -Syu shaderc vulkan-headers, or ${sdkLine}`;
  return `Upgrade glslc (shaderc) and the Vulkan headers with your distribution's package manager, or ${sdkLine}`;
}
