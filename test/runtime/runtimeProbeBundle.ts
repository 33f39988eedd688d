// The runtime probe (packagedRuntimeProbe.ts) bundled into one CommonJS file that loads node-llama-cpp from wherever
// it runs: an unpacked package, a fresh install folder, a qemu-aarch64 run. One recipe for every test that places it.
import path from "node:path";
import { build } from "esbuild";

export async function bundleRuntimeProbe(repoRoot: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [path.join(repoRoot, "test", "runtime", "packagedRuntimeProbe.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["node-llama-cpp"],
    logLevel: "error",
  });
}
