// The environment variables that give node-llama-cpp's compile extra cmake options (NODE_LLAMA_CPP_CMAKE_OPTION_*,
// and the GGML_* switches its resolveCustomCmakeOptions reads). node-llama-cpp reads them in getLlama too, and looks
// for a local build folder named by their hash: the folder our builder made has the plain name, so a worker started
// from a shell that still has them set (after `swarmboard runtime build --gpu vulkan` with a newer glslc, say) would
// miss the patched build and run in copy mode. They are a compile's inputs, so the load does not see them.
const prefix = "NODE_LLAMA_CPP_CMAKE_OPTION_";
const ggmlSwitches = [
  "GGML_METAL",
  "GGML_METAL_EMBED_LIBRARY",
  "GGML_CUDA",
  "GGML_VULKAN",
  "GGML_OPENBLAS",
  "GGML_BLAS_VENDOR",
  "GGML_CUDA_FORCE_DMMV",
  "GGML_CUDA_DMMV_X",
  "GGML_CUDA_MMV_Y",
  "GGML_CUDA_F16",
  "GGML_CUDA_KQUANTS_ITER",
  "GGML_CUDA_PEER_MAX_BATCH_SIZE",
  "GGML_HIPBLAS",
];

export function isBuildVariable(name: string): boolean {
  return (name.startsWith(prefix) && name !== prefix) || ggmlSwitches.includes(name);
}

/** Runs `load` with the build variables out of process.env, and puts them back after. (A build spawned in the
 * same worker while a model loads would not see them: builds run from a command, never during a load.) */
export async function withoutBuildVariables<T>(load: () => Promise<T>): Promise<T> {
  const hidden = Object.entries(process.env).filter(([name]) => isBuildVariable(name));
  for (const [name] of hidden) delete process.env[name];
  try {
    return await load();
  } finally {
    for (const [name, value] of hidden) process.env[name] = value;
  }
}
