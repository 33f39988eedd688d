// Makes sure node-llama-cpp runs the patched addon (kv_unified: the shared-cells runtime). Runs as `postinstall`
// after patch-package has patched node-llama-cpp's JS and C++ sources.
//
// The build is slow (minutes), so it is cached outside the clone, keyed by what decides the binary:
// node-llama-cpp's version, the hash of the patch's native part (the files under llama/ that are compiled; a
// change to the patched JS needs no rebuild, patch-package applies it on every install), platform, arch and GPU
// type. On a hit the cached build is copied into node_modules/node-llama-cpp/llama/localBuilds, where
// getLlama() finds local builds; on a miss it is built offline from the llama.cpp source node-llama-cpp ships
// (llama/gitRelease.bundle) with `node-llama-cpp source download`, then stored.
//
// Environment:
//   SWARMBOARD_GPU=false|cuda|vulkan|metal|auto   GPU type to build for (default false = CPU)
//   SWARMBOARD_BUILD_CACHE=<dir>                   cache root (default $XDG_CACHE_HOME or ~/.cache, + swarmboard/llama-builds)
//   SWARMBOARD_SKIP_RUNTIME_BUILD=1                skip: the runtime will run the stock binary in copy mode
// Flags:
//   --adopt-existing   store the local build already in node_modules under the current key instead of building
//                      (for a build you just made by hand from the same patch)
//   --check            build nothing: exit 1 unless the installed build is the patched one for the current key
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const nlcDir = path.join(root, "node_modules", "node-llama-cpp");
const localBuildsDir = path.join(nlcDir, "llama", "localBuilds");
const lastBuildFile = path.join(nlcDir, "llama", "lastBuild.json");
const markerName = "swarmboard-build-key.txt";
const started = Date.now();

function say(line) {
  console.log(`[swarmboard runtime] ${line}`);
}

function seconds() {
  return `${((Date.now() - started) / 1000).toFixed(1)} s`;
}

/** The part of the patch that changes compiled files: only it decides whether the addon must be rebuilt. */
function nativePatchHash(version) {
  const patchFile = path.join(root, "patches", `node-llama-cpp+${version}.patch`);
  if (!existsSync(patchFile)) throw new Error(`no patch for node-llama-cpp ${version} at ${patchFile}`);
  const sections = readFileSync(patchFile, "utf8").split(/^(?=diff --git )/m);
  const native = sections.filter((section) => section.startsWith("diff --git a/node_modules/node-llama-cpp/llama/"));
  if (native.length === 0)
    throw new Error(`${patchFile} changes no file under llama/: it cannot make the addon unified`);
  return createHash("sha256").update(native.join("")).digest("hex").slice(0, 16);
}

function buildKey() {
  const { version } = JSON.parse(readFileSync(path.join(nlcDir, "package.json"), "utf8"));
  const gpu = process.env.SWARMBOARD_GPU ?? "false";
  if (!["false", "cuda", "vulkan", "metal", "auto"].includes(gpu)) {
    throw new Error(`SWARMBOARD_GPU=${gpu} is not one of false, cuda, vulkan, metal, auto`);
  }
  return {
    gpu,
    key: `nlc-${version}-native-${nativePatchHash(version)}-${process.platform}-${process.arch}-gpu-${gpu}`,
  };
}

function cacheRoot() {
  if (process.env.SWARMBOARD_BUILD_CACHE) return path.resolve(process.env.SWARMBOARD_BUILD_CACHE);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "swarmboard", "llama-builds");
}

/** The local build folder node-llama-cpp wrote last (e.g. linux-x64, linux-x64-cuda). */
function lastBuildFolder() {
  if (!existsSync(lastBuildFile)) return undefined;
  return JSON.parse(readFileSync(lastBuildFile, "utf8")).folderName;
}

function installedKey(folder) {
  const marker = path.join(localBuildsDir, folder, markerName);
  return existsSync(marker) ? readFileSync(marker, "utf8").trim() : undefined;
}

/** What getLlama() needs of a local build: Release/ (addon + metadata), bin/, buildDone.status. */
const buildParts = ["Release", "bin", "buildDone.status"];

function storeInCache(folder, key, cacheDir, buildSeconds) {
  const staging = `${cacheDir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  for (const part of buildParts) {
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

function restoreFromCache(cacheDir) {
  const { folder } = JSON.parse(readFileSync(path.join(cacheDir, "manifest.json"), "utf8"));
  rmSync(path.join(localBuildsDir, folder), { recursive: true, force: true });
  cpSync(path.join(cacheDir, "localBuilds", folder), path.join(localBuildsDir, folder), { recursive: true });
  cpSync(path.join(cacheDir, "lastBuild.json"), lastBuildFile);
  return folder;
}

function buildFromSource(gpu) {
  for (const tool of ["cmake", process.platform === "win32" ? "cl" : "c++"]) {
    const found = spawnSync(process.platform === "win32" ? "where" : "which", [tool], { stdio: "ignore" }).status === 0;
    if (!found)
      say(
        `WARNING: ${tool} not found on PATH; the build needs cmake and a C++ compiler (Debian: apt-get install cmake g++).`,
      );
  }
  say(`building node-llama-cpp from its bundled llama.cpp source for gpu=${gpu} (takes minutes)...`);
  const result = spawnSync("npx", ["--no", "node-llama-cpp", "source", "download", "--gpu", gpu], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_LLAMA_CPP_SKIP_DOWNLOAD: "false" },
  });
  if (result.status !== 0)
    throw new Error(`node-llama-cpp source download --gpu ${gpu} failed (exit ${result.status})`);
  const folder = lastBuildFolder();
  if (folder === undefined)
    throw new Error("the build finished but node-llama-cpp/llama/lastBuild.json names no build");
  return folder;
}

/** Loads the installed build in a child process and checks that it is local and reads kvUnified. */
function verify(gpu) {
  const gpuOption = gpu === "false" ? "false" : JSON.stringify(gpu);
  const script = `
    import { getLlama } from "node-llama-cpp";
    const llama = await getLlama({ gpu: ${gpuOption}, build: "never", usePrebuiltBinaries: false, progressLogs: false, logLevel: "error" });
    const unified = typeof llama._bindings.AddonContext.prototype.getKvUnified === "function";
    console.log(JSON.stringify({ buildType: llama.buildType, gpu: llama.gpu, unified }));
    await llama.dispose();`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
  const line = result.stdout.trim().split("\n").at(-1) ?? "";
  if (result.status !== 0 || !line.startsWith("{")) {
    throw new Error(`the installed build does not load: ${result.stderr.trim().split("\n").slice(-3).join(" | ")}`);
  }
  const facts = JSON.parse(line);
  if (facts.buildType !== "localBuild" || !facts.unified) {
    throw new Error(`the installed build is not the patched one (${line})`);
  }
  return facts;
}

function main() {
  if (process.env.SWARMBOARD_SKIP_RUNTIME_BUILD === "1") {
    say("!!!!!!!! SWARMBOARD_SKIP_RUNTIME_BUILD=1: not building the patched runtime. Swarmboard will run the stock");
    say("!!!!!!!! node-llama-cpp binary in COPY MODE (every fork copies the trunk; no shared cells).");
    return;
  }
  if (!existsSync(nlcDir)) throw new Error("node_modules/node-llama-cpp is missing; run npm ci first");
  const { gpu, key } = buildKey();
  const cacheDir = path.join(cacheRoot(), key);
  const current = lastBuildFolder();
  if (current !== undefined && installedKey(current) === key && !process.argv.includes("--adopt-existing")) {
    const facts = verify(gpu);
    say(`patched build ${key} already installed (${current}, ${facts.buildType}, kvUnified supported); ${seconds()}`);
    return;
  }
  if (process.argv.includes("--check")) {
    throw new Error(
      `the installed build (${current ?? "none"}: ${current ? (installedKey(current) ?? "no key") : "-"}) is not ${key}`,
    );
  }
  let folder;
  let action;
  if (process.argv.includes("--adopt-existing")) {
    folder = current;
    if (folder === undefined) throw new Error("--adopt-existing: there is no local build in node_modules to adopt");
    storeInCache(folder, key, cacheDir, null);
    action = `adopted the existing local build ${folder} into the cache`;
  } else if (existsSync(path.join(cacheDir, "manifest.json"))) {
    folder = restoreFromCache(cacheDir);
    action = `cache hit: copied ${folder} from ${cacheDir}`;
  } else {
    say(`cache miss: no build at ${cacheDir}`);
    folder = buildFromSource(gpu);
    const buildSeconds = (Date.now() - started) / 1000;
    storeInCache(folder, key, cacheDir, buildSeconds);
    action = `built ${folder} from source and stored it in ${cacheDir}`;
  }
  writeFileSync(path.join(localBuildsDir, folder, markerName), `${key}\n`);
  const facts = verify(gpu);
  say(`${action}; loads as ${facts.buildType} (gpu ${facts.gpu}), kvUnified supported; ${seconds()}`);
}

try {
  main();
} catch (error) {
  say(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
  say("Swarmboard can still run the stock binary in copy mode; fix the above and run `node scripts/buildRuntime.mjs`.");
  process.exitCode = 1;
}
