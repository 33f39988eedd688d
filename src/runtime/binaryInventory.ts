// What llama.cpp binaries this install carries, read from disk for binaryChoice.ts: the patched runtime's builds
// (node-llama-cpp/llama/localBuilds/<folder>/swarmboard-build-key.txt, written by scripts/buildRuntime.mjs) and the
// official @node-llama-cpp/* packages that node-llama-cpp would accept (same version as itself: it ignores others).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { officialPackageFor, type BinaryInventory, type GpuKind } from "./binaryChoice";

const gpuKinds: readonly GpuKind[] = [false, "cuda", "vulkan", "metal"];

/** node-llama-cpp's package folder (its `node` export condition resolves under require too). */
function nodeLlamaCppDir(): string | undefined {
  try {
    return path.resolve(path.dirname(require.resolve("node-llama-cpp")), "..");
  } catch {
    return undefined;
  }
}

function versionOf(packageDir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** The GPU type in a build key such as `nlc-3.22.1-...-linux-x64-gpu-false-cpu-portable`. */
export function gpuOfBuildKey(key: string): GpuKind | undefined {
  const match = /-gpu-(false|cuda|vulkan|metal)(?:-|$)/.exec(key.trim());
  if (match === null) return undefined;
  return match[1] === "false" ? false : (match[1] as GpuKind);
}

function patchedBuilds(nlcDir: string): GpuKind[] {
  const localBuilds = path.join(nlcDir, "llama", "localBuilds");
  if (!existsSync(localBuilds)) return [];
  const kinds: GpuKind[] = [];
  for (const folder of readdirSync(localBuilds)) {
    const marker = path.join(localBuilds, folder, "swarmboard-build-key.txt");
    if (!existsSync(marker) || !existsSync(path.join(localBuilds, folder, "Release"))) continue;
    const kind = gpuOfBuildKey(readFileSync(marker, "utf8"));
    if (kind !== undefined && !kinds.includes(kind)) kinds.push(kind);
  }
  return kinds;
}

function officialPackages(nlcDir: string, platform: string, arch: string): string[] {
  const version = versionOf(nlcDir);
  const names = gpuKinds
    .map((kind) => officialPackageFor(platform, arch, kind))
    .filter((name): name is string => name !== undefined);
  return names.filter((name) => {
    try {
      const entry = require.resolve(`@node-llama-cpp/${name}`, { paths: [nlcDir] });
      return versionOf(path.resolve(path.dirname(entry), "..")) === version;
    } catch {
      return false;
    }
  });
}

/** What this process's node-llama-cpp can load on this platform. */
export function binaryInventory(platform = process.platform, arch = process.arch): BinaryInventory {
  const nlcDir = nodeLlamaCppDir();
  if (nlcDir === undefined) return { patched: [], official: [] };
  return { patched: patchedBuilds(nlcDir), official: officialPackages(nlcDir, platform, arch) };
}
