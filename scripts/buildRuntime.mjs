// Makes sure node-llama-cpp runs the patched addon (kv_unified: the shared-cells runtime). Runs as `postinstall`
// after patch-package has patched node-llama-cpp's JS and C++ sources.
//
// The build is slow (minutes), so it is cached outside the clone, keyed by what decides the binary:
// node-llama-cpp's version, the hash of the patch's native part (the files under llama/ that are compiled; a
// change to the patched JS needs no rebuild, patch-package applies it on every install), platform, arch, GPU
// type and CPU flavor (portable or native, scripts/runtimeBuildFlavor.mjs). On a hit the cached build is copied
// into node_modules/node-llama-cpp/llama/localBuilds, where
// getLlama() finds local builds; on a miss it is built offline from the llama.cpp source node-llama-cpp ships
// (llama/gitRelease.bundle) with `node-llama-cpp source download`, then stored.
//
// Environment:
//   SWARMBOARD_GPU=false|cuda|vulkan|metal|auto   GPU type to build for (default false = CPU)
//   SWARMBOARD_RUNTIME_BUILD=portable|native       CPU code: every CPU variant, chosen at run time (default, what
//                                                  ships), or -march=native (benchmarks, local development)
//   SWARMBOARD_BUILD_CACHE=<dir>                   cache root (default $XDG_CACHE_HOME or ~/.cache, + swarmboard/llama-builds)
//   SWARMBOARD_SKIP_RUNTIME_BUILD=1                skip: the runtime will run the stock binary in copy mode
// Flags:
//   --gpu <false|cuda|vulkan|metal|auto>   the GPU type to build for (overrides SWARMBOARD_GPU); each backend has
//                      its own cache entry and local build folder (linux-x64, linux-x64-cuda, ...), so a CPU and a
//                      GPU build live side by side and the runtime loads the one its `gpu` setting asks for
//   --adopt-existing   store the local build already in node_modules under the current key instead of building
//                      (for a build you just made by hand from the same patch)
//   --check            build nothing: exit 1 unless the installed build is the patched one for the current key
//   --status           build nothing: print {key, cacheDir, installed, cached} as one JSON line (what
//                      `swarmboard runtime build` asks first: a build that is installed or cached needs no compiler)
//   --from-command     run by `swarmboard runtime build` (and so by the VS Code command): a failure says to run
//                      that again rather than this script, which an installed extension's user does not run
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import {
  buildKeyOf,
  cacheHas,
  cacheRoot,
  cmakeJsShimDir,
  dropCpuVariants as dropVariantsIn,
  installedKey as installedKeyIn,
  lastBuildFolder as lastBuildFolderIn,
  layoutOf,
  moveToPlainFolder as moveToPlainFolderIn,
  restoreFromCache as restoreFromCacheIn,
  storeInCache as storeInCacheIn,
  writeInstalledKey,
} from "./lib/buildSteps.mjs";
import { flavorEnv, runtimeFlavor } from "./runtimeBuildFlavor.mjs";

// The steps themselves live in scripts/lib/buildSteps.mjs (shared with the other scripts that build or install
// a runtime); this script is their order for this checkout.
const root = path.resolve(import.meta.dirname, "..");
const layout = layoutOf(root);
const { nlcDir } = layout;
const started = Date.now();

function say(line) {
  console.log(`[swarmboard runtime] ${line}`);
}

function seconds() {
  return `${((Date.now() - started) / 1000).toFixed(1)} s`;
}

/** The value after `--gpu`, if given. */
function gpuFlag() {
  const at = process.argv.indexOf("--gpu");
  if (at === -1) return undefined;
  const value = process.argv[at + 1];
  if (value === undefined || value.startsWith("--"))
    throw new Error("--gpu expects false, cuda, vulkan, metal or auto");
  return value;
}

function buildKey() {
  const gpu = gpuFlag() ?? process.env.SWARMBOARD_GPU ?? "false";
  const flavor = runtimeFlavor();
  return { gpu, flavor, key: buildKeyOf(layout, gpu, flavor) };
}

const lastBuildFolder = () => lastBuildFolderIn(layout);
const installedKey = (folder) => installedKeyIn(layout, folder);
const storeInCache = (folder, key, cacheDir, buildSeconds) =>
  storeInCacheIn(layout, folder, key, cacheDir, buildSeconds);
const restoreFromCache = (cacheDir) => restoreFromCacheIn(layout, cacheDir);
const dropCpuVariants = (folder, flavor) => dropVariantsIn(layout, folder, flavor, say);
const moveToPlainFolder = (folder, gpu) => moveToPlainFolderIn(layout, folder, gpu);

function buildFromSource(gpu, flavor) {
  for (const tool of ["cmake", process.platform === "win32" ? "cl" : "c++"]) {
    const found = spawnSync(process.platform === "win32" ? "where" : "which", [tool], { stdio: "ignore" }).status === 0;
    if (!found)
      say(
        `WARNING: ${tool} not found on PATH; the build needs cmake and a C++ compiler (Debian: apt-get install cmake g++).`,
      );
  }
  const cmakeEnv = flavorEnv(flavor);
  const options = Object.entries(cmakeEnv).map(
    ([name, value]) => `${name.replace(/^NODE_LLAMA_CPP_CMAKE_OPTION_/, "")}=${value}`,
  );
  say(`building node-llama-cpp from its bundled llama.cpp source for gpu=${gpu}, ${flavor} CPU code`);
  say(`(${options.join(" ") || "GGML_NATIVE=ON"}); this takes minutes...`);
  // node-llama-cpp's CLI file run by the `node` on PATH (the one its build's `npm run` uses too), not `npx`: an
  // installed extension has no node_modules/.bin and a package's unpacked files may have lost their executable bit
  // (`npx` then fails with "node-llama-cpp: Permission denied" before anything is built).
  const cli = path.join(nlcDir, "dist", "cli", "cli.js");
  const shims = cmakeJsShimDir(layout);
  const pathVar = Object.keys(process.env).find((name) => name.toUpperCase() === "PATH") ?? "PATH";
  const searchPath = [shims, process.env[pathVar]].filter(Boolean).join(path.delimiter);
  const result = spawnSync("node", [cli, "source", "download", "--gpu", gpu], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...cmakeEnv, NODE_LLAMA_CPP_SKIP_DOWNLOAD: "false", [pathVar]: searchPath },
  });
  if (result.status !== 0) {
    const how = result.error?.message ?? (result.signal ? `killed by ${result.signal}` : `exit ${result.status}`);
    throw new Error(`node-llama-cpp source download --gpu ${gpu} failed (${how})`);
  }
  const folder = lastBuildFolder();
  if (folder === undefined)
    throw new Error("the build finished but node-llama-cpp/llama/lastBuild.json names no build");
  return moveToPlainFolder(folder, gpu);
}

/**
 * Loads the installed build in a child process and checks that it is local and reads kvUnified; a portable build
 * must also have loaded one of its CPU variants (ggml logs "loaded CPU backend from <library>" at node-llama-cpp's "log" level).
 */
function verify(gpu, flavor) {
  const gpuOption = gpu === "false" ? "false" : JSON.stringify(gpu);
  const script = `
    import { getLlama } from "node-llama-cpp";
    const lines = [];
    const logger = (_level, message) => lines.push(message);
    const llama = await getLlama({ gpu: ${gpuOption}, build: "never", usePrebuiltBinaries: false, progressLogs: false, logLevel: "log", logger });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const unified = typeof llama._bindings.AddonContext.prototype.getKvUnified === "function";
    const backend = lines.map((l) => /loaded CPU backend from (.+)/.exec(l)?.[1]).find(Boolean);
    const cpuVariant = backend ? /ggml-cpu-([\\w.]+?)\\.(so|dll|dylib)/.exec(backend)?.[1] ?? backend.trim() : "built in";
    console.log(JSON.stringify({ buildType: llama.buildType, gpu: llama.gpu, unified, cpuVariant }));
    await llama.dispose();`;
  // Loaded as the runtime will load it: without the compile's options. node-llama-cpp reads NODE_LLAMA_CPP_CMAKE_OPTION_*
  // in getLlama too, and names the folder it looks for by their hash, so a toolchain path given for the compile
  // (scripts/vulkanToolchain.sh) made it look for a folder that moveToPlainFolder had renamed.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("NODE_LLAMA_CPP_CMAKE_OPTION_")),
  );
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: root,
    encoding: "utf8",
    env,
  });
  const line = result.stdout.trim().split("\n").at(-1) ?? "";
  if (result.status !== 0 || !line.startsWith("{")) {
    const how = result.signal ? `killed by ${result.signal}` : `exit ${result.status}`;
    throw new Error(
      `the installed build does not load (${how}): ${result.stderr.trim().split("\n").slice(-3).join(" | ")}`,
    );
  }
  const facts = JSON.parse(line);
  if (facts.buildType !== "localBuild" || !facts.unified) {
    throw new Error(`the installed build is not the patched one (${line})`);
  }
  if (flavor === "portable" && facts.cpuVariant === "built in") {
    throw new Error(`the installed build is not the portable one: it loaded no CPU variant library (${line})`);
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
  const { gpu, flavor, key } = buildKey();
  const cacheDir = path.join(cacheRoot(), key);
  const current = lastBuildFolder();
  if (process.argv.includes("--status")) {
    const installed = current !== undefined && installedKey(current) === key;
    console.log(JSON.stringify({ key, cacheDir, installed, cached: cacheHas(cacheDir) }));
    return;
  }
  if (current !== undefined && installedKey(current) === key && !process.argv.includes("--adopt-existing")) {
    dropCpuVariants(current, flavor);
    const facts = verify(gpu, flavor);
    say(
      `patched build ${key} already installed (${current}, ${facts.buildType}, kvUnified supported, ` +
        `CPU variant ${facts.cpuVariant}); ${seconds()}`,
    );
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
    if (current === undefined) throw new Error("--adopt-existing: there is no local build in node_modules to adopt");
    folder = moveToPlainFolder(current, gpu);
    dropCpuVariants(folder, flavor);
    storeInCache(folder, key, cacheDir, null);
    action = `adopted the existing local build ${folder} into the cache`;
  } else if (cacheHas(cacheDir)) {
    folder = restoreFromCache(cacheDir);
    dropCpuVariants(folder, flavor);
    action = `cache hit: copied ${folder} from ${cacheDir}`;
  } else {
    say(`cache miss: no build at ${cacheDir}`);
    folder = buildFromSource(gpu, flavor);
    dropCpuVariants(folder, flavor);
    const buildSeconds = (Date.now() - started) / 1000;
    storeInCache(folder, key, cacheDir, buildSeconds);
    action = `built ${folder} from source and stored it in ${cacheDir}`;
  }
  writeInstalledKey(layout, folder, key);
  const facts = verify(gpu, flavor);
  say(
    `${action}; loads as ${facts.buildType} (gpu ${facts.gpu}), kvUnified supported, ` +
      `CPU variant ${facts.cpuVariant}; ${seconds()}`,
  );
}

try {
  main();
} catch (error) {
  say(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
  const again = process.argv.includes("--from-command")
    ? "Swarmboard: Build Runtime for This Machine (or `swarmboard runtime build`) again"
    : "`node scripts/buildRuntime.mjs`";
  say(`Swarmboard can still run the stock binary in copy mode; fix the above and run ${again}.`);
  process.exitCode = 1;
}
