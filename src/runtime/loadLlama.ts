// Which llama.cpp binary the runtime runs on. node-llama-cpp prefers its stock prebuilt binaries
// (@node-llama-cpp/<platform>), which ignore `kvUnified`; the patched build that `scripts/buildRuntime.mjs`
// makes lives in node-llama-cpp/llama/localBuilds. So the runtime first asks for local builds only
// (`usePrebuiltBinaries: false`, `build: "never"`: never compile at run time), and falls back to the stock
// binary, in copy mode, only when no local build exists, saying so.
import type { Llama, LlamaGpuType } from "node-llama-cpp" with { "resolution-mode": "import" };
import { loadNodeLlamaCpp } from "./nodeLlamaCpp";

/** `false` = CPU. "auto" tries the machine's GPU types, then the CPU. */
export type GpuChoice = LlamaGpuType | "auto";

export type LlamaBuildKind = "patched-local-build" | "stock-prebuilt";

export interface LoadedLlama {
  readonly llama: Llama;
  readonly build: LlamaBuildKind;
  /** Set when the runtime had to fall back to a binary that cannot share cells. */
  readonly notice?: string;
}

const loaded = new Map<string, Promise<LoadedLlama>>();

/** One Llama per GPU choice for the whole process (the model is loaded once on top of it). */
export function loadLlama(gpu: GpuChoice = false): Promise<LoadedLlama> {
  const key = String(gpu);
  let pending = loaded.get(key);
  if (pending === undefined) {
    pending = loadLlamaUncached(gpu);
    loaded.set(key, pending);
    pending.catch(() => loaded.delete(key));
  }
  return pending;
}

async function loadLlamaUncached(gpu: GpuChoice): Promise<LoadedLlama> {
  const { getLlama, LlamaLogLevel } = await loadNodeLlamaCpp();
  const quiet = { logLevel: LlamaLogLevel.error, progressLogs: false } as const;
  try {
    const llama = await getLlama({ gpu, build: "never", usePrebuiltBinaries: false, ...quiet });
    return { llama, build: "patched-local-build" };
  } catch (localError) {
    const llama = await getLlama({ gpu, build: "never", usePrebuiltBinaries: true, ...quiet });
    const reason = localError instanceof Error ? localError.message : String(localError);
    return {
      llama,
      build: "stock-prebuilt",
      notice:
        `No patched node-llama-cpp build was found (${reason}); running the stock binary in COPY MODE: ` +
        "every fork copies the trunk. Run `node scripts/buildRuntime.mjs` (or `npm ci`) to build the shared-cells runtime.",
    };
  }
}
