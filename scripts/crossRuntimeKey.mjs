// The cache entry of the cross-built linux-arm64 runtime (scripts/buildRuntimeCross.mjs), for the build and for
// `npm run package -- --target linux-arm64`, which carries it. Keyed like this machine's build (buildRuntime.mjs):
// node-llama-cpp's version, the patch's native hash, the target, the GPU and the CPU flags (the armv8-a baseline).
import { readFileSync } from "node:fs";
import path from "node:path";
import { cacheRoot, layoutOf, nativePatchHash } from "./lib/buildSteps.mjs";

export const crossTarget = "linux-arm64";

/** { key, dir }: the key and the cache folder the cross build is (or will be) stored in. */
export function crossRuntimeEntry(root) {
  const { version } = JSON.parse(readFileSync(path.join(layoutOf(root).nlcDir, "package.json"), "utf8"));
  const key = `nlc-${version}-native-${nativePatchHash(root, version)}-${crossTarget}-gpu-false-cpu-armv8-a`;
  return { key, dir: path.join(cacheRoot(), key) };
}
