// The cache entry of the cross-built linux-arm64 runtime (scripts/buildRuntimeCross.mjs), for the build and for
// `npm run package -- --target linux-arm64`, which carries it. Keyed like this machine's build (buildRuntime.mjs):
// node-llama-cpp's version, the patch's native hash, the target, the GPU and the CPU flags (the armv8-a baseline).
import path from "node:path";
import { installedNodeLlamaCppVersion, nativePatchHash, runtimeCacheRoot } from "./runtimeBuildCache.mjs";

export const crossTarget = "linux-arm64";

/** { key, dir }: the key and the cache folder the cross build is (or will be) stored in. */
export function crossRuntimeEntry(root) {
  const version = installedNodeLlamaCppVersion(path.join(root, "node_modules", "node-llama-cpp"));
  const key = `nlc-${version}-native-${nativePatchHash(root, version)}-${crossTarget}-gpu-false-cpu-armv8-a`;
  return { key, dir: path.join(runtimeCacheRoot(), key) };
}
