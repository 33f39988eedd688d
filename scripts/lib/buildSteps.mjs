// The steps of building and caching the patched node-llama-cpp runtime (the shared-cells runtime), for every
// script that makes or installs one: scripts/buildRuntime.mjs (npm install, and the "Build Runtime for This
// Machine" command and `swarmboard runtime build`, which run it) and cross-build scripts. Each step takes the
// folders it works on (layoutOf), so a script for another target or a test on a copy of node-llama-cpp can use it.
//
// The cache key names what decides the binary: node-llama-cpp's version, the hash of the patch's native part (the
// files under llama/ that are compiled), platform, arch, GPU type and CPU flavor (portable or native).
import { createHash } from "node:crypto";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { droppedCpuVariants, flavorKeySuffix, plainBuildFolder } from "../runtimeBuildFlavor.mjs";

export const gpuTypes = ["false", "cuda", "vulkan", "metal", "auto"];

/** The file in an installed local build that says which key it was built (or restored) for. */
export const markerName = "swarmboard-build-key.txt";

/** What getLlama() needs of a local build: Release/ (addon + metadata), bin/, buildDone.status. */
const buildParts = ["Release", "bin", "buildDone.status"];

/** The folders of a checkout (or an unpacked extension) whose node-llama-cpp the steps build and install. */
export function layoutOf(root) {
  const nlcDir = path.join(root, "node_modules", "node-llama-cpp");
  return {
    root,
    nlcDir,
    localBuildsDir: path.join(nlcDir, "llama", "localBuilds"),
    lastBuildFile: path.join(nlcDir, "llama", "lastBuild.json"),
  };
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

/** The cache key of a build of this layout's node-llama-cpp for a GPU type and flavor on a platform. */
export function buildKeyOf(layout, gpu, flavor, platform = process.platform, arch = process.arch) {
  if (!gpuTypes.includes(gpu)) {
    throw new Error(`--gpu / SWARMBOARD_GPU=${gpu} is not one of ${gpuTypes.join(", ")}`);
  }
  const { version } = JSON.parse(readFileSync(path.join(layout.nlcDir, "package.json"), "utf8"));
  const patch = nativePatchHash(layout.root, version);
  return `nlc-${version}-native-${patch}-${platform}-${arch}-gpu-${gpu}${flavorKeySuffix(flavor)}`;
}

export function cacheRoot(env = process.env) {
  if (env.SWARMBOARD_BUILD_CACHE) return path.resolve(env.SWARMBOARD_BUILD_CACHE);
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "swarmboard", "llama-builds");
}

/** Whether the cache holds a whole entry (a manifest is written last, before the entry is renamed into place). */
export function cacheHas(cacheDir) {
  return existsSync(path.join(cacheDir, "manifest.json"));
}

/** The local build folder node-llama-cpp wrote last (e.g. linux-x64, linux-x64-cuda). */
export function lastBuildFolder(layout) {
  if (!existsSync(layout.lastBuildFile)) return undefined;
  return JSON.parse(readFileSync(layout.lastBuildFile, "utf8")).folderName;
}

export function installedKey(layout, folder) {
  const marker = path.join(layout.localBuildsDir, folder, markerName);
  return existsSync(marker) ? readFileSync(marker, "utf8").trim() : undefined;
}

export function writeInstalledKey(layout, folder, key) {
  writeFileSync(path.join(layout.localBuildsDir, folder, markerName), `${key}\n`);
}

/**
 * Copies a local build into the cache through a staging folder: a cache entry is never half written. `layout` needs
 * only `localBuildsDir` and `lastBuildFile` (the cross build stores from a scratch copy of node-llama-cpp);
 * `extraParts` are more files of the build folder to keep (the cross build's key marker).
 */
export function storeInCache(layout, folder, key, cacheDir, buildSeconds, extraParts = []) {
  const staging = `${cacheDir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  for (const part of [...buildParts, ...extraParts]) {
    const from = path.join(layout.localBuildsDir, folder, part);
    if (existsSync(from)) cpSync(from, path.join(staging, "localBuilds", folder, part), { recursive: true });
  }
  cpSync(layout.lastBuildFile, path.join(staging, "lastBuild.json"));
  writeFileSync(
    path.join(staging, "manifest.json"),
    JSON.stringify({ key, folder, storedAt: new Date().toISOString(), buildSeconds }, null, 2),
  );
  rmSync(cacheDir, { recursive: true, force: true });
  mkdirSync(path.dirname(cacheDir), { recursive: true });
  renameSync(staging, cacheDir); // whole or nothing
}

export function restoreFromCache(layout, cacheDir) {
  const { folder } = JSON.parse(readFileSync(path.join(cacheDir, "manifest.json"), "utf8"));
  rmSync(path.join(layout.localBuildsDir, folder), { recursive: true, force: true });
  cpSync(path.join(cacheDir, "localBuilds", folder), path.join(layout.localBuildsDir, folder), { recursive: true });
  cpSync(path.join(cacheDir, "lastBuild.json"), layout.lastBuildFile);
  return folder;
}

/** Removes the CPU variant libraries a portable build must not ship (runtimeBuildFlavor.mjs says why). */
export function dropCpuVariants(layout, folder, flavor, say) {
  if (flavor !== "portable") return;
  for (const variant of droppedCpuVariants) {
    for (const ext of ["so", "dll", "dylib"]) {
      for (const dir of ["Release", "bin"]) {
        const library = path.join(layout.localBuildsDir, folder, dir, `libggml-cpu-${variant}.${ext}`);
        if (existsSync(library)) {
          rmSync(library);
          say(`left out the ${variant} CPU variant (${path.relative(layout.root, library)})`);
        }
      }
    }
  }
}

/** A build with custom cmake options lands in <plain>-<hash>; getLlama() at run time looks in <plain>. */
export function moveToPlainFolder(layout, folder, gpu) {
  const plain = plainBuildFolder(gpu);
  if (!folder.startsWith(`${plain}-`)) return folder;
  rmSync(path.join(layout.localBuildsDir, plain), { recursive: true, force: true });
  renameSync(path.join(layout.localBuildsDir, folder), path.join(layout.localBuildsDir, plain));
  writeFileSync(layout.lastBuildFile, JSON.stringify({ folderName: plain }, null, 4));
  return plain;
}

/**
 * node-llama-cpp compiles through `npm run cmake-js-llama` ("cd llama && cmake-js"), which finds cmake-js in
 * node_modules/.bin. A clone has it; an installed extension does not (a VSIX carries no .bin), and there the build
 * failed at once with "cmake-js: not found". Returns a folder holding a `cmake-js` that runs the package's own
 * bin file with node, for the front of PATH, or undefined where .bin has one. The folder sits in node-llama-cpp's
 * own, is rewritten on every build and never removed, so a killed build leaves nothing in a temporary folder.
 */
export function cmakeJsShimDir(layout) {
  const bin = path.join(layout.root, "node_modules", ".bin");
  if (["cmake-js", "cmake-js.cmd"].some((name) => existsSync(path.join(bin, name)))) return undefined;
  const script = path.join(layout.root, "node_modules", "cmake-js", "bin", "cmake-js");
  if (!existsSync(script)) return undefined;
  const dir = path.join(layout.nlcDir, "llama", "swarmboard-bin");
  mkdirSync(dir, { recursive: true });
  if (process.platform === "win32") {
    writeFileSync(path.join(dir, "cmake-js.cmd"), `@node "${script}" %*\r\n`);
  } else {
    writeFileSync(path.join(dir, "cmake-js"), `#!/bin/sh\nexec node "${script}" "$@"\n`);
    chmodSync(path.join(dir, "cmake-js"), 0o755);
  }
  return dir;
}
