// Which llama.cpp binary the runtime runs on. node-llama-cpp prefers its stock prebuilt binaries
// (@node-llama-cpp/<platform>), which ignore `kvUnified`; the patched build that `scripts/buildRuntime.mjs`
// makes lives in node-llama-cpp/llama/localBuilds. So the runtime first asks for local builds only
// (`usePrebuiltBinaries: false`, `build: "never"`: never compile at run time), and falls back to the stock
// binary, in copy mode, when no local build exists or it fails to load (a platform the package has no patched
// build for, a missing library), or when the host asks for it (SWARMBOARD_FORCE_STOCK_RUNTIME=1, set after the
// patched build killed a worker with SIGILL). The fallback is said on stderr (the host's log) and in `notice`.
// A named GPU backend (cuda, vulkan, metal) that neither binary can load is a GpuUnavailableError, never a CPU run.
// What this install carries (binaryInventory.ts) decides, through the pure binaryChoice.ts, whether the patched
// build is tried at all and refuses a named backend that no binary here serves before anything is loaded.
import type { Llama } from "node-llama-cpp" with { "resolution-mode": "import" };
import { forceStockRuntimeVariable } from "../core/workerCrash";
import { binaryChoice, type BinaryChoice, type GpuKind } from "./binaryChoice";
import { binaryInventory } from "./binaryInventory";
import { withoutBuildVariables } from "./buildVariables";
import { BackendLoadLog, builtInCpuVariant } from "./cpuVariant";
import { GpuUnavailableError, isGpuBackend, platformRefusal, type GpuChoice } from "./gpuBackend";
import { loadNodeLlamaCpp } from "./nodeLlamaCpp";

export type { GpuChoice } from "./gpuBackend";

export type LlamaBuildKind = "patched-local-build" | "stock-prebuilt";

export interface LoadedLlama {
  readonly llama: Llama;
  readonly build: LlamaBuildKind;
  /** The CPU variant library ggml loaded ("haswell", "sse42", ...), or "built in" for a single-CPU build. */
  readonly cpuVariant: string;
  /** Set when the runtime had to fall back to a binary that cannot share cells. */
  readonly notice?: string;
}

/** A new Llama for a GPU choice; the runtime's owner keeps one per choice (runtimeOwner.ts). */
export async function loadLlama(gpu: GpuChoice = false): Promise<LoadedLlama> {
  const choice = choiceHere(gpu);
  if (!isGpuBackend(gpu)) return withoutBuildVariables(() => loadLlamaBuild(gpu, choice));
  const refusal = platformRefusal(gpu, process.platform, process.arch);
  if (refusal !== undefined) throw new GpuUnavailableError(gpu, refusal);
  if (choice.kind === "none") throw new GpuUnavailableError(gpu, choice.why);
  let loaded: LoadedLlama;
  try {
    loaded = await withoutBuildVariables(() => loadLlamaBuild(gpu, choice));
  } catch (cause) {
    const what = cause instanceof Error ? cause.message || cause.name : String(cause);
    const why =
      what === "NoBinaryFoundError"
        ? `neither a Swarmboard runtime built for ${gpu} nor node-llama-cpp's own ${gpu} binary loads on this machine`
        : `no build of the runtime for ${gpu} loads on this machine (${what})`;
    throw new GpuUnavailableError(gpu, why, cause);
  }
  const devices = await loaded.llama.getGpuDeviceNames().catch(() => []);
  if (loaded.llama.gpu !== gpu || devices.length === 0) {
    await loaded.llama.dispose();
    throw new GpuUnavailableError(gpu, `the ${gpu} build loaded but found no GPU device`);
  }
  return loaded;
}

/** Every GPU type node-llama-cpp might find for "auto" (it detects them in getLlama; over-asking only adds tries). */
const autoGpus: readonly GpuKind[] = ["cuda", "vulkan", "metal"];

function choiceHere(gpu: GpuChoice): BinaryChoice {
  return binaryChoice({
    platform: process.platform,
    arch: process.arch,
    gpu,
    machineGpus: autoGpus,
    present: binaryInventory(),
    forceOfficial: process.env[forceStockRuntimeVariable] === "1",
  });
}

/** The CPU variant each binary's backends were loaded with in this process, by build and GPU type. */
const variantsHeard = new Map<string, string>();

/**
 * ggml loads a binary's backends once per process and names the CPU variant only then: a second Llama on the same
 * binary (another owner's, as in the tests) hears nothing, and gets what the first heard.
 */
function cpuVariantOf(binary: string, heard: string | undefined): string {
  if (heard !== undefined) variantsHeard.set(binary, heard);
  return heard ?? variantsHeard.get(binary) ?? builtInCpuVariant;
}

async function loadLlamaBuild(gpu: GpuChoice, choice: BinaryChoice): Promise<LoadedLlama> {
  const { getLlama, LlamaLogLevel } = await loadNodeLlamaCpp();
  const backendLog = new BackendLoadLog();
  // ggml's "loaded CPU backend from" line comes at node-llama-cpp's `log` level (below info): that level while
  // the backends load, errors only afterwards.
  const options = { gpu, build: "never", progressLogs: false, logLevel: LlamaLogLevel.log } as const;
  const settle = async (llama: Llama, build: LlamaBuildKind) => {
    await backendLog.settle();
    llama.logLevel = LlamaLogLevel.error;
    return cpuVariantOf(`${build}/${String(llama.gpu)}`, backendLog.heardVariant);
  };
  let reason: string;
  if (process.env[forceStockRuntimeVariable] === "1") {
    reason = `${forceStockRuntimeVariable}=1 asks for node-llama-cpp's official binaries`;
  } else if (choice.kind === "tries" && !choice.tries.some((t) => t.build === "patched-local-build")) {
    reason = `no patched build for ${gpu === false ? "the CPU" : gpu} is installed here`;
  } else {
    try {
      const llama = await getLlama({ ...options, usePrebuiltBinaries: false, logger: backendLog.logger });
      return { llama, build: "patched-local-build", cpuVariant: await settle(llama, "patched-local-build") };
    } catch (localError) {
      reason = `no patched build loads here: ${localError instanceof Error ? localError.message : String(localError)}`;
    }
  }
  // getLlama() always tries a local build before the prebuilt ones. Asked with a cmake option no local build was
  // made with, it finds no local build folder for that option and loads the prebuilt binary, which it matches
  // without custom options (`existingPrebuiltBinaryMustMatchBuildOptions` stays false).
  const llama = await getLlama({
    ...options,
    usePrebuiltBinaries: true,
    cmakeOptions: { SWARMBOARD_OFFICIAL_BINARIES: "ON" },
    existingPrebuiltBinaryMustMatchBuildOptions: false,
    logger: backendLog.logger,
  });
  const notice =
    `Swarmboard runtime: ${reason}. Running node-llama-cpp's official binaries in COPY MODE: every fork copies ` +
    "the trunk (no shared cells), so each agent costs a whole trunk of KV cells. To get shared cells, build the " +
    "patched runtime on this machine: in a clone of Swarmboard, `npm ci` (or `node scripts/buildRuntime.mjs`).";
  process.stderr.write(`${notice}\n`);
  return { llama, build: "stock-prebuilt", cpuVariant: await settle(llama, "stock-prebuilt"), notice };
}
