// Which CPU code the patched runtime is compiled for: the choice that decides whether the VSIX runs on a user's
// machine. Used by scripts/buildRuntime.mjs (build, cache key) and scripts/packageExtension.mjs (refuse to ship
// a native build).
//
//   portable (default): GGML_NATIVE=OFF, GGML_BACKEND_DL=ON and, where ggml has them, GGML_CPU_ALL_VARIANTS=ON:
//     one libggml-cpu-<variant> per CPU generation (x64: x64, sse42, sandybridge ... zen4, sapphirerapids), and
//     ggml loads the best one this CPU supports at run time. node-llama-cpp's own CI mode makes the same choice
//     for its prebuilt binaries. OpenMP off as there too: the shipped libraries must not need the build machine's
//     libgomp. Compile cost measured on a 2-core machine: one x64 CPU variant is about 35 CPU-seconds, so the 14
//     variants add about 8 minutes of CPU to the ~6.5 of the rest (see README, Platforms).
//   native: GGML_NATIVE=ON (-march=native), the build machine's own instructions, one CPU library. For benchmarks
//     and local development only: it dies with SIGILL on an older CPU, so packaging refuses it.
export const runtimeFlavors = ["portable", "native"];

export function runtimeFlavor(env = process.env) {
  const flavor = env.SWARMBOARD_RUNTIME_BUILD ?? "portable";
  if (!runtimeFlavors.includes(flavor)) {
    throw new Error(`SWARMBOARD_RUNTIME_BUILD=${flavor} is not one of ${runtimeFlavors.join(", ")}`);
  }
  return flavor;
}

/** Where ggml has a list of CPU variants to build (ggml/src/CMakeLists.txt, `if (GGML_CPU_ALL_VARIANTS)`). */
function hasCpuVariants(platform, arch) {
  if (arch === "x64") return true;
  return arch === "arm64" && (platform === "linux" || platform === "darwin");
}

/** The cmake options node-llama-cpp is given (as NODE_LLAMA_CPP_CMAKE_OPTION_* variables) for a flavor. */
export function flavorCmakeOptions(flavor, platform = process.platform, arch = process.arch) {
  if (flavor === "native") return {};
  const options = { GGML_NATIVE: "OFF", GGML_BACKEND_DL: "ON", GGML_OPENMP: "OFF" };
  if (hasCpuVariants(platform, arch)) options.GGML_CPU_ALL_VARIANTS = "ON";
  return options;
}

export function flavorEnv(flavor, platform = process.platform, arch = process.arch) {
  const env = {};
  for (const [option, value] of Object.entries(flavorCmakeOptions(flavor, platform, arch))) {
    env[`NODE_LLAMA_CPP_CMAKE_OPTION_${option}`] = value;
  }
  return env;
}

/**
 * The part of the cache key that names the flavor. The native key keeps the spelling it had before there was a
 * choice, so caches filled then stay valid.
 */
export function flavorKeySuffix(flavor) {
  return flavor === "native" ? "" : `-cpu-${flavor}`;
}

/**
 * CPU variants a portable build compiles but does not keep. `sapphirerapids` is the only one with ggml's AMX
 * kernels, and on KVM guests that report AMX (cloud Sapphire Rapids VMs, this project's CI machines) the first AMX
 * matmul of a quantised model dies with SIGILL at `tileloadd`, after the kernel granted the tile permission (seen
 * 2026-12-03: every Q8_0 family free run killed). Without it such a CPU loads the best AVX-512 variant ggml has for
 * it (zen4, cooperlake, icelake): slower than AMX on bare metal, never a crash. Dropped on every install path
 * (built, restored from the cache, adopted, already installed), so caches filled before keep their key.
 */
export const droppedCpuVariants = ["sapphirerapids"];

/**
 * The folder getLlama() looks in for a local build when no custom cmake options are set at run time
 * (node-llama-cpp's getBuildFolderNameForBuildOptions): <platform>-<arch>[-<gpu>]. A build with custom options
 * lands in <that>-<hash>; it is moved here so the installed extension finds it without the build's variables.
 */
export function plainBuildFolder(gpu, platform = process.platform, arch = process.arch) {
  const nlcPlatform = { darwin: "mac", win32: "win" }[platform] ?? platform;
  return [nlcPlatform, arch, ...(gpu === "false" ? [] : [gpu])].join("-");
}
