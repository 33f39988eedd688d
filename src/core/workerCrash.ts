// What a worker's death means. Most deaths are a bug or an out-of-memory kill and a restart is the right answer;
// SIGILL is different: JavaScript never executes an illegal instruction, llama.cpp's native code does when it was
// compiled for a newer CPU than this one (a -march=native build, or a variant ggml should not have picked). A
// restart on the same binary crashes again, so the supervisor restarts the worker on node-llama-cpp's official
// binaries (copy mode) and says so, and says what to do, instead of counting it as one more crash.

/** The environment variable that makes the worker's runtime skip the patched build (read by src/runtime/loadLlama). */
export const forceStockRuntimeVariable = "SWARMBOARD_FORCE_STOCK_RUNTIME";

export type WorkerCrash =
  /** An ordinary crash: restart within the budget. */
  | { readonly kind: "crash" }
  /** The patched runtime's native code is wrong for this CPU: restart once on the official binaries. */
  | { readonly kind: "bad-binary"; readonly message: string }
  /** Even the official binaries die: restarting cannot help. */
  | { readonly kind: "unsupported-cpu"; readonly message: string };

export function classifyWorkerExit(signal: string | null, onStockRuntime: boolean): WorkerCrash {
  if (signal !== "SIGILL") return { kind: "crash" };
  if (!onStockRuntime) {
    return {
      kind: "bad-binary",
      message:
        "The Swarmboard worker was killed by SIGILL (an illegal instruction) in llama.cpp's native code: the patched " +
        "runtime in this install was compiled for a newer CPU than this machine's. Swarmboard restarts the worker on " +
        "node-llama-cpp's official binaries in COPY MODE (every fork copies the trunk, so fewer agents fit). To get " +
        "shared cells back, install the Swarmboard package built for this platform (its runtime picks the CPU " +
        "variant at run time), or build the runtime on this machine (README, Platforms), then run " +
        '"Swarmboard: Restart Worker".',
    };
  }
  return {
    kind: "unsupported-cpu",
    message:
      "The Swarmboard worker was killed by SIGILL (an illegal instruction) again, on node-llama-cpp's official " +
      "binaries: llama.cpp cannot run on this CPU as installed. The worker is left stopped. Build the runtime on this " +
      'machine (README, Platforms) and run "Swarmboard: Restart Worker", or report the CPU (the Swarmboard output ' +
      "has the details).",
  };
}
