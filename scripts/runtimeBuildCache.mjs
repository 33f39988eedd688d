// What scripts/buildRuntime.mjs (this machine's runtime) and scripts/buildRuntimeCross.mjs (linux-arm64, cross-built)
// share: the hash of the patch's native part, the cache root, and how a finished local build is stored there. Keys
// and cache entries have the same shape for both, so a cache entry of either is restored the same way.
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** node-llama-cpp's installed version: the patch is for it, and it is part of every key. */
export function installedNodeLlamaCppVersion(nlcDir) {
  return JSON.parse(readFileSync(path.join(nlcDir, "package.json"), "utf8")).version;
}

/** The part of the patch that changes compiled files: only it decides whether the addon must be rebuilt. */
export function nativePatchHash(root, version) {
  const patchFile = path.join(root, "patches", `node-llama-cpp+${version}.patch`);
  if (!existsSync(patchFile)) throw new Error(`no patch for node-llama-cpp ${version} at ${patchFile}`);
  const sections = readFileSync(patchFile, "utf8").split(/^(?=diff --git )/m);
  const native = sections.filter((section) => section.startsWith("diff --git a/node_modules/node-llama-cpp/llama/"));
  if (native.length === 0)
    throw new Error(`${patchFile} changes no file under llama/: it cannot make the addon unified`);
  return createHash("sha256").update(native.join("")).digest("hex").slice(0, 16);
}

/** SWARMBOARD_BUILD_CACHE, else $XDG_CACHE_HOME or ~/.cache, + swarmboard/llama-builds. */
export function runtimeCacheRoot() {
  if (process.env.SWARMBOARD_BUILD_CACHE) return path.resolve(process.env.SWARMBOARD_BUILD_CACHE);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "swarmboard", "llama-builds");
}

/** What getLlama() needs of a local build: Release/ (addon + metadata), bin/, buildDone.status. */
export const buildParts = ["Release", "bin", "buildDone.status"];

/**
 * Stores the local build `<localBuildsDir>/<folder>` (and node-llama-cpp's lastBuild.json) as the cache entry
 * `cacheDir`, with a manifest; `extraParts` are more files of the build folder to keep (the build key marker).
 */
export function storeBuildInCache({
  localBuildsDir,
  lastBuildFile,
  folder,
  key,
  cacheDir,
  buildSeconds,
  extraParts = [],
}) {
  const staging = `${cacheDir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  for (const part of [...buildParts, ...extraParts]) {
    const from = path.join(localBuildsDir, folder, part);
    if (existsSync(from)) cpSync(from, path.join(staging, "localBuilds", folder, part), { recursive: true });
  }
  cpSync(lastBuildFile, path.join(staging, "lastBuild.json"));
  writeFileSync(
    path.join(staging, "manifest.json"),
    JSON.stringify({ key, folder, storedAt: new Date().toISOString(), buildSeconds }, null, 2),
  );
  rmSync(cacheDir, { recursive: true, force: true });
  mkdirSync(path.dirname(cacheDir), { recursive: true });
  renameSync(staging, cacheDir); // whole or nothing: a cache entry is never half written
}
