// The GPU backend the runtime asks node-llama-cpp for, and the error when an asked-for backend cannot run here.
// "auto" never fails: node-llama-cpp tries the machine's GPU types (CUDA, Vulkan, Metal) and then the CPU. A named
// backend is a demand: when no build of it loads, or it loads but sees no device, the user gets a
// GpuUnavailableError that says what to install, instead of a silent CPU run at a tenth of the speed.
import type { LlamaGpuType } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { GpuSetting } from "../protocol/runtime";

/** `false` = CPU. "auto" tries the machine's GPU types, then the CPU. */
export type GpuChoice = LlamaGpuType | "auto";

export type GpuBackend = Exclude<LlamaGpuType, false>;

/** The setting's (or flag's) value as node-llama-cpp's option. */
export function gpuChoiceOf(setting: GpuSetting): GpuChoice {
  return setting === "false" ? false : setting;
}

export function isGpuBackend(choice: GpuChoice): choice is GpuBackend {
  return choice !== false && choice !== "auto";
}

/** What a user needs for each backend, and how to build Swarmboard's runtime for it. */
const whatToInstall: Readonly<Record<GpuBackend, string>> = {
  cuda:
    "an NVIDIA GPU with its driver, and the CUDA Toolkit 12 (nvcc) to build with; then build Swarmboard's runtime " +
    "for it in a clone: `node scripts/buildRuntime.mjs --gpu cuda` (about 10-15 minutes once, cached)",
  vulkan:
    "a GPU with a Vulkan driver, and the Vulkan SDK to build with (Debian/Ubuntu: `apt-get install libvulkan-dev " +
    "glslc`); then `node scripts/buildRuntime.mjs --gpu vulkan` in a clone of Swarmboard",
  metal: "a Mac (Metal comes with macOS); then `node scripts/buildRuntime.mjs --gpu metal` in a clone of Swarmboard",
};

/** The platforms a backend exists on at all (node-llama-cpp silently turns the others into "auto"). */
export function platformRefusal(backend: GpuBackend, platform: string, arch: string): string | undefined {
  if (backend === "metal" && platform !== "darwin") return `Metal exists only on macOS (this is ${platform})`;
  if (backend === "cuda" && platform === "darwin" && arch === "arm64")
    return "CUDA does not run on Apple silicon (use --gpu metal)";
  return undefined;
}

/** The asked-for GPU backend cannot be loaded on this machine. */
export class GpuUnavailableError extends Error {
  override readonly name = "GpuUnavailableError";
  readonly code = "gpu-unavailable";
  /** The person's input asks for what this machine cannot do (a CLI exits 2). */
  readonly badInput = true;

  constructor(
    readonly backend: GpuBackend,
    why: string,
    override readonly cause?: unknown,
  ) {
    super(
      `The ${backend} GPU backend cannot be used here: ${why}. It needs ${whatToInstall[backend]}. ` +
        "Or run on the CPU with --gpu false (setting swarmboard.gpu: false), or let Swarmboard choose with --gpu auto.",
    );
  }
}
