// Cross-builds the patched runtime (shared cells) for linux-arm64 on an x64 Linux machine, for the linux-arm64
// package (scripts/packageExtension.mjs) and its run under qemu-aarch64 (test/cross/arm64Generation.test.ts).
// Same patch and bundled llama.cpp source as scripts/buildRuntime.mjs, built by node-llama-cpp's own `source build
// --arch arm64` with Debian's aarch64 compiler (apt: crossbuild-essential-arm64; scripts/aarch64-linux-gnu.cmake).
//
// CPU code: GGML_NATIVE off and one CPU library for the armv8-a baseline (GGML_CPU_ARM_ARCH=armv8-a: NEON, no
// dotprod, no SVE), which runs on every 64-bit Arm Linux machine and under qemu. ggml's per-generation variants
// (GGML_CPU_ALL_VARIANTS) are not built: their armv9.2 ones need +sme, which Debian 12's gcc 12 does not know.
//
// The build runs in a scratch copy of node-llama-cpp, never in node_modules: a build there would rewrite
// llama/lastBuild.json, which names this machine's own (x64) runtime. It is cached outside the clone like the x64
// build, keyed by node-llama-cpp's version, the patch's native hash, the target and the CPU flags
// (crossRuntimeKey); a cache hit builds nothing. Prints the cache entry's folder as its last line.
//
// Environment: SWARMBOARD_BUILD_CACHE=<dir> (the cache root, as for buildRuntime.mjs).
// Flags: --print-path   build nothing: print the entry's folder, exit 1 when it is not built
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  closeSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { crossRuntimeEntry } from "./crossRuntimeKey.mjs";
import { markerName, storeInCache } from "./lib/buildSteps.mjs";

const root = path.resolve(import.meta.dirname, "..");
const started = Date.now();
const say = (line) => console.error(`[swarmboard runtime linux-arm64] ${line}`);

/** The cmake options of the armv8-a baseline build (see the header). */
const crossCmakeOptions = {
  CMAKE_TOOLCHAIN_FILE: path.join(root, "scripts", "aarch64-linux-gnu.cmake"),
  GGML_NATIVE: "OFF",
  GGML_CPU_ARM_ARCH: "armv8-a",
  GGML_BACKEND_DL: "ON",
  GGML_OPENMP: "OFF",
};

/**
 * A scratch node_modules whose node-llama-cpp is a copy (without its local builds) and whose other packages are
 * links to the clone's: node-llama-cpp's build finds its tools (cmake-js) there and writes only into the copy.
 */
function scratchInstall(scratch) {
  const modules = realpathSync(path.join(root, "node_modules"));
  const into = path.join(scratch, "node_modules");
  mkdirSync(into);
  for (const name of readdirSync(modules)) {
    if (name !== "node-llama-cpp") symlinkSync(path.join(modules, name), path.join(into, name));
  }
  const nlc = path.join(modules, "node-llama-cpp");
  const copy = path.join(into, "node-llama-cpp");
  const skipped = ["llama/localBuilds", "llama/lastBuild.json", "llama/llama.cpp"].map((p) => path.join(nlc, p));
  cpSync(nlc, copy, { recursive: true, filter: (from) => !skipped.includes(from) });
  // The llama.cpp source is only read (cmake builds out of tree, into the copy's localBuilds).
  symlinkSync(path.join(nlc, "llama", "llama.cpp"), path.join(copy, "llama", "llama.cpp"));
  return copy;
}

/** ELF e_machine 183 = AArch64: the addon really is an arm64 binary, not this machine's. */
function isArm64Elf(file) {
  const header = Buffer.alloc(20);
  const fd = openSync(file, "r");
  try {
    readSync(fd, header, 0, 20, 0);
  } finally {
    closeSync(fd);
  }
  return header.readUInt32BE(0) === 0x7f454c46 && header.readUInt16LE(18) === 183;
}

function compile(nlcCopy) {
  for (const tool of ["cmake", "aarch64-linux-gnu-g++"]) {
    if (spawnSync("which", [tool], { stdio: "ignore" }).status !== 0) {
      throw new Error(`${tool} is not on PATH (Debian: apt-get install cmake crossbuild-essential-arm64)`);
    }
  }
  const env = { ...process.env };
  for (const [name, value] of Object.entries(crossCmakeOptions)) env[`NODE_LLAMA_CPP_CMAKE_OPTION_${name}`] = value;
  say(
    `cross-building with ${Object.entries(crossCmakeOptions)
      .map(([n, v]) => `${n}=${v}`)
      .join(" ")}`,
  );
  const cli = path.join(nlcCopy, "dist", "cli", "cli.js");
  const args = [cli, "source", "build", "--arch", "arm64", "--gpu", "false", "--noUsageExample"];
  const result = spawnSync(process.execPath, args, { cwd: nlcCopy, stdio: ["ignore", 2, 2], env });
  if (result.status !== 0) throw new Error(`node-llama-cpp source build --arch arm64 failed (exit ${result.status})`);
  const lastBuild = path.join(nlcCopy, "llama", "lastBuild.json");
  const folder = existsSync(lastBuild) ? JSON.parse(readFileSync(lastBuild, "utf8")).folderName : undefined;
  if (folder === undefined) throw new Error("the build finished but lastBuild.json names no build");
  return folder;
}

function main() {
  const { key, dir } = crossRuntimeEntry(root);
  if (existsSync(path.join(dir, "manifest.json"))) {
    say(`cache hit: ${key}`);
    console.log(dir);
    return;
  }
  if (process.argv.includes("--print-path")) {
    say(`not built: ${dir}`);
    process.exitCode = 1;
    return;
  }
  if (process.platform !== "linux" || process.arch !== "x64") throw new Error("the cross build runs on linux-x64");
  say(`cache miss: building ${key} (minutes)`);
  const scratch = mkdtempSync(path.join(os.tmpdir(), "swarmboard-cross-"));
  try {
    const nlcCopy = scratchInstall(scratch);
    const built = compile(nlcCopy);
    const localBuildsDir = path.join(nlcCopy, "llama", "localBuilds");
    // A build with custom options lands in linux-arm64-<hash>; the runtime looks in linux-arm64.
    if (built !== "linux-arm64") renameSync(path.join(localBuildsDir, built), path.join(localBuildsDir, "linux-arm64"));
    const lastBuildFile = path.join(nlcCopy, "llama", "lastBuild.json");
    writeFileSync(lastBuildFile, JSON.stringify({ folderName: "linux-arm64" }, null, 4));
    const addon = path.join(localBuildsDir, "linux-arm64", "Release", "llama-addon.node");
    if (!existsSync(addon) || !isArm64Elf(addon)) throw new Error(`${addon} is missing or not an arm64 binary`);
    writeFileSync(path.join(localBuildsDir, "linux-arm64", markerName), `${key}\n`);
    const buildSeconds = (Date.now() - started) / 1000;
    storeInCache({ localBuildsDir, lastBuildFile }, "linux-arm64", key, dir, buildSeconds, [markerName]);
    say(`built and cached in ${buildSeconds.toFixed(0)} s`);
    console.log(dir);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

try {
  main();
} catch (error) {
  say(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
