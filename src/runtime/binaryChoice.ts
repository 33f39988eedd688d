// Which llama.cpp binaries the runtime tries, in order, for a platform, a GPU choice, the machine's GPUs and what
// this install carries. Pure, so that the choice is tested over a table (test/unit/runtime/binaryChoice.test.ts)
// rather than only on the one machine the tests run on; loadLlama.ts gathers the inputs and follows the order.
// node-llama-cpp makes the final pick inside getLlama(); this mirrors its rules (which official package serves a
// platform and GPU, in compileLLamaCpp.js) so that a missing binary is said before a load is attempted.

/** A GPU type as node-llama-cpp names it; `false` = CPU. */
export type GpuKind = false | "cuda" | "vulkan" | "metal";

/** What the user asked for: a GPU type, or "auto" (the machine's GPUs in node-llama-cpp's order, then the CPU). */
export type GpuAsk = GpuKind | "auto";

/** The binaries an install carries. */
export interface BinaryInventory {
  /** GPU types the patched (shared-cells) runtime was built for here (node-llama-cpp/llama/localBuilds). */
  readonly patched: readonly GpuKind[];
  /** node-llama-cpp's official binary packages present at the pinned version ("linux-x64-vulkan", ...). */
  readonly official: readonly string[];
}

export interface BinaryChoiceInput {
  /** process.platform and process.arch. */
  readonly platform: string;
  readonly arch: string;
  readonly gpu: GpuAsk;
  /** The GPU types node-llama-cpp detects on this machine, best first (for "auto"); the CPU is implied last. */
  readonly machineGpus: readonly GpuKind[];
  readonly present: BinaryInventory;
  /** SWARMBOARD_FORCE_STOCK_RUNTIME=1: skip the patched runtime (after it died with SIGILL). */
  readonly forceOfficial: boolean;
}

export type BinaryTry =
  | { readonly build: "patched-local-build"; readonly gpu: GpuKind }
  | { readonly build: "stock-prebuilt"; readonly gpu: GpuKind; readonly officialPackage: string };

export type BinaryChoice =
  { readonly kind: "tries"; readonly tries: readonly BinaryTry[] } | { readonly kind: "none"; readonly why: string };

/** node-llama-cpp's official package for a platform and GPU type (its getPrebuiltBinariesPackageDirectoryForBuildOptions). */
export function officialPackageFor(platform: string, arch: string, gpu: GpuKind): string | undefined {
  const byPlatform: Readonly<Record<string, Readonly<Record<string, string>>>> = {
    "darwin-arm64": { metal: "mac-arm64-metal" },
    "darwin-x64": { false: "mac-x64" },
    "linux-x64": { false: "linux-x64", cuda: "linux-x64-cuda", vulkan: "linux-x64-vulkan" },
    "linux-arm64": { false: "linux-arm64" },
    "linux-arm": { false: "linux-armv7l" },
    "win32-x64": { false: "win-x64", cuda: "win-x64-cuda", vulkan: "win-x64-vulkan" },
    "win32-arm64": { false: "win-arm64" },
  };
  return byPlatform[`${platform}-${arch}`]?.[String(gpu)];
}

/** The GPU types a choice covers, in the order node-llama-cpp tries them. */
function gpuOrder(gpu: GpuAsk, machineGpus: readonly GpuKind[]): GpuKind[] {
  if (gpu !== "auto") return [gpu];
  return [...machineGpus.filter((kind) => kind !== false), false];
}

/** The patched runtime first (shared cells), then the official binaries (copy mode), per GPU type in order. */
export function binaryChoice(input: BinaryChoiceInput): BinaryChoice {
  const { platform, arch, gpu, present } = input;
  const order = gpuOrder(gpu, input.machineGpus);
  const tries: BinaryTry[] = [];
  if (!input.forceOfficial) {
    for (const kind of order)
      if (present.patched.includes(kind)) tries.push({ build: "patched-local-build", gpu: kind });
  }
  for (const kind of order) {
    // Apple silicon has no official CPU-only package: node-llama-cpp serves it only with Metal.
    const name = officialPackageFor(platform, arch, kind);
    if (name !== undefined && present.official.includes(name)) {
      tries.push({ build: "stock-prebuilt", gpu: kind, officialPackage: name });
    }
  }
  if (tries.length > 0) return { kind: "tries", tries };
  return { kind: "none", why: noneWhy(input, order) };
}

function noneWhy(input: BinaryChoiceInput, order: readonly GpuKind[]): string {
  const what = input.gpu === "auto" || input.gpu === false ? "the CPU" : input.gpu;
  const wanted = order
    .map((kind) => officialPackageFor(input.platform, input.arch, kind))
    .filter((name): name is string => name !== undefined);
  const official =
    wanted.length > 0
      ? `node-llama-cpp's official ${wanted.map((name) => `@node-llama-cpp/${name}`).join(", ")}`
      : `any official node-llama-cpp binary (none exists for ${input.platform}-${input.arch})`;
  const skipped = input.forceOfficial && input.present.patched.length > 0 ? " (the patched runtime is skipped)" : "";
  return `this install carries neither a Swarmboard runtime built for ${what}${skipped} nor ${official}`;
}
