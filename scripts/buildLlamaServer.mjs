// Builds llama.cpp's `llama-server` from the source node-llama-cpp ships (llama/gitRelease.bundle), for the
// remote engine's tests and the benchmark's `remote` arm: a real OpenAI-compatible serving engine on loopback,
// built offline. Users run their own server; this binary is never packaged.
//
// The build takes about 10 minutes on a 2-core machine, so it is cached outside the clone, keyed by what decides
// the binary: the bundle's llama.cpp commit, platform, arch and (the build is -march=native) a hash of this CPU's
// instruction-set flags, so a cache carried to another CPU is rebuilt instead of dying with SIGILL.
//
// One build at a time per key: a build holds `<entry>.building` (its pid) while it runs, and a second caller waits
// for it instead of building again. CI starts the build in the background (scripts/setup.sh --server-in-background)
// so it runs beside the first test tiers, and the tiers that need the server wait for it (test/llamaServerReady.ts).
//
// Prints the binary's path as its last line. Environment:
//   SWARMBOARD_SERVER_CACHE=<dir>   cache root (default $XDG_CACHE_HOME or ~/.cache, + swarmboard/llama-server)
// Flags:
//   --print-path   build nothing: print the cached binary's path; exit 1 when it is not built, 3 while a build runs
//   --wait         with --print-path: wait for a build that is running, then answer
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bundle = path.join(root, "node_modules", "node-llama-cpp", "llama", "gitRelease.bundle");
const binaryName = process.platform === "win32" ? "llama-server.exe" : "llama-server";

function say(line) {
  console.error(`[swarmboard llama-server] ${line}`);
}

function run(command, args, options = {}) {
  // A compiler can warn for megabytes: a small buffer would kill the build (spawnSync stops at maxBuffer).
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 1 << 30, ...options });
  if (result.status !== 0) {
    const tail = `${result.stderr ?? ""}`.trim().split("\n").slice(-5).join(" | ");
    throw new Error(
      `${command} ${args.slice(0, 3).join(" ")} failed (${result.signal ? `killed by ${result.signal}` : `exit ${result.status}`}): ${tail}`,
    );
  }
  return `${result.stdout ?? ""}`.trim();
}

/** The llama.cpp commit the bundle holds: the source this build is made from. */
function bundleCommit() {
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run npm ci first (node-llama-cpp ships it)`);
  const heads = run("git", ["bundle", "list-heads", bundle]);
  const commit = heads.split("\n")[0]?.split(" ")[0];
  if (!commit || !/^[0-9a-f]{40}$/.test(commit)) throw new Error(`no commit in ${bundle}: ${heads.slice(0, 200)}`);
  return commit;
}

/** The instruction sets -march=native compiles for: a build made on one CPU must not run on another. */
function cpuFlagsHash() {
  let flags = `${os.cpus()[0]?.model ?? "unknown cpu"}`;
  if (existsSync("/proc/cpuinfo")) {
    flags = /^flags\s*:\s*(.*)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? flags;
  }
  return createHash("sha256").update(flags).digest("hex").slice(0, 12);
}

function cacheDir(key) {
  const base =
    process.env.SWARMBOARD_SERVER_CACHE ??
    path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "swarmboard", "llama-server");
  return path.join(path.resolve(base), key);
}

function build(commit, into) {
  const work = mkdtempSync(path.join(os.tmpdir(), "swarmboard-llama-server-"));
  try {
    const source = path.join(work, "src");
    const out = path.join(work, "build");
    run("git", ["clone", "--quiet", bundle, source]);
    run("git", ["-C", source, "checkout", "--quiet", commit]);
    const options = [
      "-DLLAMA_CURL=OFF",
      "-DGGML_NATIVE=ON",
      "-DLLAMA_BUILD_TESTS=OFF",
      "-DLLAMA_BUILD_EXAMPLES=OFF",
      "-DLLAMA_BUILD_SERVER=ON",
      "-DBUILD_SHARED_LIBS=OFF",
      "-DCMAKE_BUILD_TYPE=Release",
    ];
    say(`building llama-server from llama.cpp ${commit.slice(0, 12)} (about 10 minutes on 2 cores)...`);
    run("cmake", ["-S", source, "-B", out, ...options], { stdio: ["ignore", "ignore", "pipe"] });
    const jobs = String(Math.max(1, os.availableParallelism()));
    run("cmake", ["--build", out, "--target", "llama-server", "-j", jobs], { stdio: ["ignore", "ignore", "pipe"] });
    const built = [path.join(out, "bin", binaryName), path.join(out, "bin", "Release", binaryName)].find(existsSync);
    if (!built) throw new Error(`the build finished but ${binaryName} is not under ${out}/bin`);
    const staging = `${into}.partial-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    cpSync(built, path.join(staging, binaryName));
    chmodSync(path.join(staging, binaryName), 0o755);
    rmSync(into, { recursive: true, force: true });
    renameSync(staging, into); // whole or nothing: a cache entry is never half written
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The pid of a live build of this entry, if one runs now (a lock left by a killed build is not one). */
function runningBuild(lock) {
  if (!existsSync(lock)) return undefined;
  const pid = Number(readFileSync(lock, "utf8").trim());
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/** Waits (synchronously: this script does nothing else meanwhile) while another process builds this entry. */
function waitForBuild(lock) {
  const deadline = Date.now() + 60 * 60_000;
  let said = false;
  for (let pid = runningBuild(lock); pid !== undefined; pid = runningBuild(lock)) {
    if (Date.now() > deadline) throw new Error(`llama-server build ${pid} still runs after an hour (${lock})`);
    if (!said) say(`waiting for the build already running (pid ${pid}, ${lock})...`);
    said = true;
    spawnSync("sleep", ["5"]);
  }
}

function main() {
  const commit = bundleCommit();
  const key = `llama-server-${commit.slice(0, 12)}-${process.platform}-${process.arch}-native-${cpuFlagsHash()}`;
  const dir = cacheDir(key);
  const binary = path.join(dir, binaryName);
  const lock = `${dir}.building`;
  if (!existsSync(binary)) {
    if (process.argv.includes("--print-path")) {
      const pid = runningBuild(lock);
      if (pid !== undefined && !process.argv.includes("--wait")) {
        say(`being built now (pid ${pid}): wait for it, or run with --wait`);
        process.exit(3);
      }
      waitForBuild(lock);
      if (!existsSync(binary)) {
        say(`not built yet (${binary}): run node scripts/buildLlamaServer.mjs`);
        process.exit(1);
      }
    } else {
      waitForBuild(lock);
    }
  }
  if (!existsSync(binary)) {
    const started = Date.now();
    mkdirSync(path.dirname(lock), { recursive: true });
    if (runningBuild(lock) === undefined) rmSync(lock, { force: true }); // a killed build's lock
    writeFileSync(lock, `${process.pid}\n`, { flag: "wx" }); // EEXIST: another build started this instant
    try {
      build(commit, dir);
    } finally {
      rmSync(lock, { force: true });
    }
    say(`built and cached in ${((Date.now() - started) / 1000).toFixed(0)} s: ${dir}`);
  }
  run(binary, ["--version"]); // a cached binary that does not start is an error here, not in a test
  console.log(binary);
}

main();
