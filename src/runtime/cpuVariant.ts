// Which CPU code llama.cpp runs: a portable build (GGML_BACKEND_DL) carries one libggml-cpu-<variant> library per
// CPU generation and ggml loads the best one this CPU supports; node-llama-cpp does not expose which. ggml says it
// in one log line while the backends load ("load_backend: loaded CPU backend from <library>"), so the runtime
// listens to the log during getLlama() and reads the variant from that line.
import type { LlamaLogLevel } from "node-llama-cpp" with { "resolution-mode": "import" };

/** What a build without CPU variant libraries reports: its CPU code is linked into ggml itself. */
export const builtInCpuVariant = "built in";

const loadedCpuBackend = /loaded CPU backend from (.+)$/;
const variantLibrary = /ggml-cpu-([\w.]+?)\.(?:so|dll|dylib)$/;
const passedOnLevels: ReadonlySet<string> = new Set(["error", "fatal"]);

/** The variant named by one ggml log line ("haswell", "sse42", ...), or undefined when the line is not that one. */
export function cpuVariantFromLogLine(line: string): string | undefined {
  const library = loadedCpuBackend.exec(line.trim())?.[1]?.trim();
  if (library === undefined) return undefined;
  return variantLibrary.exec(library)?.[1] ?? library;
}

/** A node-llama-cpp logger that keeps the CPU variant line and passes errors on to stderr. */
export class BackendLoadLog {
  private variant: string | undefined;

  readonly logger = (level: LlamaLogLevel, message: string): void => {
    this.variant ??= cpuVariantFromLogLine(message);
    if (passedOnLevels.has(level)) process.stderr.write(`[node-llama-cpp] ${message.trimEnd()}\n`);
  };

  /** The variant seen so far, if any; read after the log's queued lines have been delivered (see `settle`). */
  get heardVariant(): string | undefined {
    return this.variant;
  }

  /** node-llama-cpp hands log lines over in a queued microtask; one macrotask later they have all arrived. */
  settle(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, 10));
  }
}
