// Makes sure node-llama-cpp runs the patched addon (kv_unified: the shared-cells runtime). Runs as `postinstall`
// after patch-package has patched node-llama-cpp's JS and C++ sources.
//
// The build is slow (minutes), so it is cached outside the clone, keyed by what decides the binary:
// node-llama-cpp's version, the hash of the patch's native part (the files under llama/ that are compiled; a
// change to the patched JS needs no rebuild, patch-package applies it on every install), platform, arch, GPU
// type and CPU flavor (portable or native, scripts/runtimeBuildFlavor.mjs). On a hit the cached build is copied into node_modules/node-llama-cpp/llama/localBuilds, where
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
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  droppedCpuVariants,
  flavorEnv,
  flavorKeySuffix,
  plainBuildFolder,
  runtimeFlavor,
} from "./runtimeBuildFlavor.mjs";
import {
  installedNodeLlamaCppVersion,
  nativePatchHash,
  runtimeCacheRoot,
  storeBuildInCache,
} from "./runtimeBuildCache.mjs";

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
  const version = installedNodeLlamaCppVersion(nlcDir);
  const gpu = gpuFlag() ?? process.env.SWARMBOARD_GPU ?? "false";
  if (!["false", "cuda", "vulkan", "metal", "auto"].includes(gpu)) {
    throw new Error(`--gpu / SWARMBOARD_GPU=${gpu} is not one of false, cuda, vulkan, metal, auto`);
  }
  const flavor = runtimeFlavor();
  const patch = nativePatchHash(root, version);
  return {
    gpu,
    flavor,
    key: `nlc-${version}-native-${patch}-${process.platform}-${process.arch}-gpu-${gpu}${flavorKeySuffix(flavor)}`,
  };
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

function storeInCache(folder, key, cacheDir, buildSeconds) {
  storeBuildInCache({ localBuildsDir, lastBuildFile, folder, key, cacheDir, buildSeconds });
}

function restoreFromCache(cacheDir) {
  const { folder } = JSON.parse(readFileSync(path.join(cacheDir, "manifest.json"), "utf8"));
  rmSync(path.join(localBuildsDir, folder), { recursive: true, force: true });
  cpSync(path.join(cacheDir, "localBuilds", folder), path.join(localBuildsDir, folder), { recursive: true });
  cpSync(path.join(cacheDir, "lastBuild.json"), lastBuildFile);
  return folder;
}

/** Removes the CPU variant libraries a portable build must not ship (runtimeBuildFlavor.mjs says why). */
function dropCpuVariants(folder, flavor) {
  if (flavor !== "portable") return;
  for (const variant of droppedCpuVariants) {
    for (const ext of ["so", "dll", "dylib"]) {
      for (const dir of ["Release", "bin"]) {
        const library = path.join(localBuildsDir, folder, dir, `libggml-cpu-${variant}.${ext}`);
        if (existsSync(library)) {
          rmSync(library);
          say(`left out the ${variant} CPU variant (${path.relative(root, library)})`);
        }
      }
    }
  }
}

/** A build with custom cmake options lands in <plain>-<hash>; getLlama() at run time looks in <plain>. */
function moveToPlainFolder(folder, gpu) {
  const plain = plainBuildFolder(gpu);
  if (!folder.startsWith(`${plain}-`)) return folder;
  rmSync(path.join(localBuildsDir, plain), { recursive: true, force: true });
  renameSync(path.join(localBuildsDir, folder), path.join(localBuildsDir, plain));
  writeFileSync(lastBuildFile, JSON.stringify({ folderName: plain }, null, 4));
  return plain;
}

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
  const result = spawnSync("npx", ["--no", "node-llama-cpp", "source", "download", "--gpu", gpu], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...cmakeEnv, NODE_LLAMA_CPP_SKIP_DOWNLOAD: "false" },
    shell: process.platform === "win32", // npx is npx.cmd there, which Node runs only through a shell
  });
  if (result.status !== 0)
    throw new Error(`node-llama-cpp source download --gpu ${gpu} failed (exit ${result.status})`);
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
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
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
  const cacheDir = path.join(runtimeCacheRoot(), key);
  const current = lastBuildFolder();
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
  } else if (existsSync(path.join(cacheDir, "manifest.json"))) {
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
  writeFileSync(path.join(localBuildsDir, folder, markerName), `${key}\n`);
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
  say("Swarmboard can still run the stock binary in copy mode; fix the above and run `node scripts/buildRuntime.mjs`.");
  process.exitCode = 1;
}
