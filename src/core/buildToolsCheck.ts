// Whether this machine can compile the shared-cells runtime, decided from what was found on it (the probes are in
// src/worker/runtimeBuild/buildToolProbes.ts): a C++ compiler, cmake, npm (node-llama-cpp's build runs through
// it), git where llama.cpp's source must be fetched, and the GPU toolkit the build is for. When something is
// missing the answer says what and the command that installs it on that platform, and no build starts: a compile
// that dies after minutes on a missing header says much less. A Vulkan shader compiler or headers too old for this
// llama.cpp refuse the build the same way (src/core/vulkanToolsCheck.ts). Pure, so that every platform is tested.
import { vulkanProblems, vulkanUpgradeAdvice, type GlslcFacts, type VulkanHeaderFacts } from "./vulkanToolsCheck";

/** The GPU type of a build, as node-llama-cpp names it ("false" = CPU only). */
export type BuildGpu = "false" | "cuda" | "vulkan" | "metal";

export const buildGpus: readonly BuildGpu[] = ["false", "cuda", "vulkan", "metal"];

/** Which package manager a Linux machine's install commands use (from /etc/os-release). */
export type LinuxFamily = "debian" | "fedora" | "arch" | "other";

/** What the probes found; a tool absent is undefined (or false). */
export interface BuildToolFacts {
  readonly platform: string;
  readonly arch: string;
  readonly linuxFamily?: LinuxFamily;
  /** The C++ compiler found first on PATH ("g++ 12.2.0", "clang++ 15.0.0"); on Windows, MSVC's. */
  readonly compiler?: string;
  /** cmake's version ("3.25.1"). */
  readonly cmake?: string;
  /** macOS: `xcode-select -p` names a developer folder (the command-line tools: clang, the SDK, Metal). */
  readonly xcodeTools?: boolean;
  /** Windows: vswhere finds Visual Studio (Build Tools) with the C++ tools. */
  readonly msvc?: boolean;
  /** CUDA: nvcc's version. */
  readonly nvcc?: string;
  /** npm: node-llama-cpp's build runs its cmake through `npm run` (and the builder through npx). */
  readonly npm?: boolean;
  /** git: needed only to fetch llama.cpp's source when the install carries no bundle of it (a packaged extension). */
  readonly git?: boolean;
  /** Whether node-llama-cpp/llama/gitRelease.bundle is here (a clone after npm ci): then nothing is fetched. */
  readonly sourceBundled?: boolean;
  /** Vulkan: the shader compiler and the headers the build would use, the loader library to link, and SPIR-V's
   * headers (ggml's Vulkan CMake asks for their CMake package; undefined where not probed). */
  readonly glslc?: GlslcFacts;
  readonly vulkanHeaders?: VulkanHeaderFacts;
  readonly vulkanLibrary?: boolean;
  readonly spirvHeaders?: boolean;
}

export interface MissingTool {
  /** What is missing, in a user's words. */
  readonly what: string;
  /** The command that installs it here, or where to get it when no package manager carries it. */
  readonly install: string;
}

export type BuildToolsVerdict =
  | { readonly kind: "ready"; readonly tools: string }
  | { readonly kind: "missing"; readonly missing: readonly MissingTool[]; readonly text: string }
  /** Everything is there but the Vulkan shader compiler or headers are too old for this llama.cpp. */
  | { readonly kind: "too-old"; readonly problems: readonly string[]; readonly text: string }
  | { readonly kind: "unsupported"; readonly text: string };

type Need =
  "compiler" | "cmake" | "npm" | "git" | "nvcc" | "glslc" | "vulkanHeaders" | "vulkanLibrary" | "spirvHeaders";

const needWords: Record<Need, string> = {
  compiler: "a C++ compiler",
  cmake: "cmake (3.19 or later)",
  npm: "Node.js with npm",
  git: "git (to fetch llama.cpp's source)",
  nvcc: "the CUDA toolkit (nvcc)",
  glslc: "the Vulkan shader compiler (glslc)",
  vulkanHeaders: "the Vulkan headers",
  vulkanLibrary: "the Vulkan loader library (libvulkan)",
  spirvHeaders: "the SPIR-V headers (their CMake package)",
};

/** Install commands per platform family; Windows and macOS get the whole Vulkan SDK from one package. */
const installs: Record<string, Partial<Record<Need, string>>> = {
  debian: {
    compiler: "sudo apt-get install build-essential",
    cmake: "sudo apt-get install cmake",
    npm: "sudo apt-get install nodejs npm",
    git: "sudo apt-get install git",
    nvcc: "sudo apt-get install nvidia-cuda-toolkit",
    glslc: "sudo apt-get install glslc",
    vulkanHeaders: "sudo apt-get install libvulkan-dev",
    vulkanLibrary: "sudo apt-get install libvulkan-dev",
    spirvHeaders: "sudo apt-get install spirv-headers",
  },
  fedora: {
    compiler: "sudo dnf install gcc-c++ make",
    cmake: "sudo dnf install cmake",
    npm: "sudo dnf install nodejs npm",
    git: "sudo dnf install git",
    nvcc: "sudo dnf install cuda-toolkit (from NVIDIA's CUDA repository for Fedora/RHEL)",
    glslc: "sudo dnf install glslc",
    vulkanHeaders: "sudo dnf install vulkan-headers",
    vulkanLibrary: "sudo dnf install vulkan-loader-devel",
    spirvHeaders: "sudo dnf install spirv-headers-devel",
  },
  arch: {
    compiler: "sudo pacman -S base-devel",
    cmake: "sudo pacman -S cmake",
    npm: "sudo pacman -S nodejs npm",
    git: "sudo pacman -S git",
    nvcc: "sudo pacman -S cuda",
    glslc: "sudo pacman -S shaderc",
    vulkanHeaders: "sudo pacman -S vulkan-headers",
    vulkanLibrary: "sudo pacman -S vulkan-icd-loader",
    spirvHeaders: "sudo pacman -S spirv-headers",
  },
  other: {
    compiler: "install g++ (or clang++) with your distribution's package manager",
    cmake: "install cmake with your distribution's package manager, or from https://cmake.org/download/",
    npm: "install Node.js 20 or later (with npm) from https://nodejs.org/",
    git: "install git with your distribution's package manager",
    nvcc: "install the CUDA toolkit from https://developer.nvidia.com/cuda-downloads",
    glslc: "install glslc (shaderc) with your distribution's package manager",
    vulkanHeaders: "install the Vulkan development headers with your distribution's package manager",
    vulkanLibrary: "install the Vulkan loader (libvulkan) development package with your distribution's package manager",
    spirvHeaders: "install the SPIR-V headers (spirv-headers) with your distribution's package manager",
  },
  darwin: {
    compiler: "xcode-select --install",
    cmake: "brew install cmake",
    npm: "brew install node",
    git: "xcode-select --install",
    glslc: "brew install shaderc",
    vulkanHeaders: "brew install vulkan-headers",
    vulkanLibrary: "brew install vulkan-loader molten-vk",
  },
  win32: {
    compiler:
      'winget install Microsoft.VisualStudio.2022.BuildTools --override "--add Microsoft.VisualStudio.Workload.VCTools --includeRecommended --passive"',
    cmake: "winget install Kitware.CMake",
    npm: "winget install OpenJS.NodeJS.LTS",
    git: "winget install Git.Git",
    nvcc: "winget install Nvidia.CUDA",
    glslc: "winget install KhronosGroup.VulkanSDK",
    vulkanHeaders: "winget install KhronosGroup.VulkanSDK",
    vulkanLibrary: "winget install KhronosGroup.VulkanSDK",
  },
};

function installTable(facts: BuildToolFacts): Partial<Record<Need, string>> {
  if (facts.platform === "linux") return installs[facts.linuxFamily ?? "other"] ?? {};
  return installs[facts.platform] ?? {};
}

/** A GPU type this platform has no toolkit for, said before anything is probed further. */
function unsupportedGpu(platform: string, gpu: BuildGpu): string | undefined {
  if (gpu === "metal" && platform !== "darwin") return "Metal exists only on macOS";
  if (gpu === "cuda" && platform === "darwin") return "CUDA does not run on macOS (Apple silicon uses Metal)";
  return undefined;
}

/** The tools a build for this GPU type needs that the probes did not find. */
function missingNeeds(facts: BuildToolFacts, gpu: BuildGpu): Need[] {
  const missing: Need[] = [];
  // On macOS the compiler is the command-line tools' clang; on Windows node-llama-cpp builds with MSVC.
  const compilerFound =
    facts.platform === "darwin"
      ? facts.xcodeTools === true
      : facts.platform === "win32"
        ? facts.msvc === true
        : facts.compiler !== undefined;
  if (!compilerFound) missing.push("compiler");
  if (facts.cmake === undefined) missing.push("cmake");
  if (facts.npm !== true) missing.push("npm");
  if (facts.sourceBundled !== true && facts.git !== true) missing.push("git");
  if (gpu === "cuda" && facts.nvcc === undefined) missing.push("nvcc");
  if (gpu === "vulkan") {
    if (facts.glslc === undefined) missing.push("glslc");
    if (facts.vulkanHeaders === undefined) missing.push("vulkanHeaders");
    if (facts.vulkanLibrary !== true) missing.push("vulkanLibrary");
    if (facts.spirvHeaders === false) missing.push("spirvHeaders");
  }
  return missing;
}

function gpuWords(gpu: BuildGpu): string {
  return gpu === "false" ? "the CPU" : gpu === "cuda" ? "CUDA" : gpu === "vulkan" ? "Vulkan" : "Metal";
}

/** Whether a build for `gpu` can start on the machine these facts describe, and if not, what to install. */
export function checkBuildTools(facts: BuildToolFacts, gpu: BuildGpu): BuildToolsVerdict {
  const where = `${facts.platform}-${facts.arch}`;
  const unsupported = unsupportedGpu(facts.platform, gpu);
  if (unsupported !== undefined) {
    return { kind: "unsupported", text: `Cannot build the runtime for ${gpuWords(gpu)} on ${where}: ${unsupported}.` };
  }
  const table = installTable(facts);
  const needs = missingNeeds(facts, gpu);
  const problems = gpu === "vulkan" ? vulkanProblems(facts.glslc, facts.vulkanHeaders) : [];
  if (needs.length === 0 && problems.length === 0) return { kind: "ready", tools: toolsLine(facts, gpu) };
  // What is too old is said beside what is missing, so that one round of installs fixes both.
  const tooOld =
    problems.length === 0
      ? ""
      : `${problems.map((p) => `  - ${p}`).join("\n")}\n${vulkanUpgradeAdvice(facts.platform, facts.linuxFamily)}\n`;
  const nothingBuilt = "Nothing was built; the runtime you have keeps working.";
  if (needs.length === 0) {
    const text = `Cannot build the runtime for Vulkan on ${where}: its tools are too old for this llama.cpp.\n${tooOld}${nothingBuilt}`;
    return { kind: "too-old", problems, text };
  }
  const missing = needs.map((need) => ({ what: needWords[need], install: table[need] ?? installs.other![need]! }));
  const commands = [...new Set(missing.map((m) => m.install))];
  const text =
    `Cannot build the runtime for ${gpuWords(gpu)} on ${where}: missing ${missing.map((m) => m.what).join(", ")}. ` +
    `Install ${commands.length === 1 ? "it" : "them"} with:\n${commands.map((c) => `  ${c}`).join("\n")}\n` +
    (tooOld === "" ? "" : `Also too old for this llama.cpp:\n${tooOld}`) +
    `then run the build again. ${nothingBuilt}`;
  return { kind: "missing", missing, text };
}

/** What the build will use, as the progress shows it first. */
function toolsLine(facts: BuildToolFacts, gpu: BuildGpu): string {
  const compiler =
    facts.platform === "darwin"
      ? `Xcode command-line tools${facts.compiler ? ` (${facts.compiler})` : ""}`
      : facts.platform === "win32"
        ? "MSVC build tools"
        : facts.compiler!;
  const parts = [compiler, `cmake ${facts.cmake!}`];
  if (gpu === "cuda") parts.push(`nvcc ${facts.nvcc!}`);
  if (gpu === "vulkan") {
    const headers = facts.vulkanHeaders!;
    parts.push(
      `glslc ${facts.glslc!.version!} (GL_KHR_cooperative_matrix)`,
      `Vulkan headers ${headers.version ?? String(headers.headerVersion)}`,
    );
  }
  if (gpu === "metal") parts.push("Metal (from the command-line tools)");
  return parts.join(", ");
}
