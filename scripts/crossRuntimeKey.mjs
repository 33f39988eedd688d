// The cache entry of the cross-built linux-arm64 runtime (scripts/buildRuntimeCross.mjs), for the build and for
// `npm run package -- --target linux-arm64`, which carries it. Keyed like this machine's build (buildRuntime.mjs):
// node-llama-cpp's version, the patch's native hash, the target, the GPU and the CPU flags (the armv8-a baseline).
import path from "node:path";
import { buildKeyOf, cacheRoot, layoutOf } from "./lib/buildSteps.mjs";

export const crossTarget = "linux-arm64";

/** { key, dir }: the key and the cache folder the cross build is (or will be) stored in. */
export function crossRuntimeEntry(root) {
  // The same key shape as this machine's build, with the target's platform and arch and the armv8-a CPU flavor.
  const key = buildKeyOf(layoutOf(root), "false", "armv8-a", "linux", "arm64");
  return { key, dir: path.join(cacheRoot(), key) };
}
