// node-llama-cpp's official prebuilt binaries (@node-llama-cpp/<name>) for any platform, for `npm run package`:
// fetched with `npm pack` (the registry is all CI has) and unpacked into a cache outside the clone, keyed by
// name@version, so a second package build downloads nothing. The version is node-llama-cpp's own: it ignores a
// binary package of any other version (getBinsDir's packageVersion check).
//   SWARMBOARD_BINARIES_CACHE=<dir>   cache root (default $XDG_CACHE_HOME or ~/.cache, + swarmboard/official-binaries)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

function cacheRoot() {
  if (process.env.SWARMBOARD_BINARIES_CACHE) return process.env.SWARMBOARD_BINARIES_CACHE;
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "swarmboard", "official-binaries");
}

/** The node-llama-cpp version installed in the clone at `root`: the version of every binary package it accepts. */
export function nodeLlamaCppVersion(root) {
  return JSON.parse(readFileSync(path.join(root, "node_modules", "node-llama-cpp", "package.json"), "utf8")).version;
}

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", shell: process.platform === "win32" });
  return { ok: result.status === 0, output: `${result.stdout ?? ""}${result.stderr ?? ""}` };
}

/** The newest version the registry has of a package, for the message when the pinned one is missing. */
function newestPublished(spec) {
  const { ok, output } = run("npm", ["view", spec, "version"], os.tmpdir());
  return ok ? output.trim().split("\n").pop() : undefined;
}

/**
 * The unpacked package folder of @node-llama-cpp/<name>@<version>, fetched once. Returns { dir, fetchedSeconds }
 * or { missing: why } when the registry does not have that version.
 */
export function officialBinaries(name, version) {
  const spec = `@node-llama-cpp/${name}@${version}`;
  const dir = path.join(cacheRoot(), `${name}@${version}`);
  if (existsSync(path.join(dir, "package.json"))) return { dir, fetchedSeconds: 0 };
  const started = Date.now();
  mkdirSync(cacheRoot(), { recursive: true });
  const scratch = mkdtempSync(path.join(cacheRoot(), `.fetch-${name}-`));
  try {
    const packed = run("npm", ["pack", spec, "--pack-destination", scratch, "--silent"], scratch);
    const tarball = readdirSync(scratch).find((file) => file.endsWith(".tgz"));
    if (!packed.ok || tarball === undefined) {
      const newest = newestPublished(`@node-llama-cpp/${name}`);
      return {
        missing:
          `${spec} is not in the npm registry` +
          (newest ? ` (its newest version there is ${newest}, which node-llama-cpp ${version} refuses to load)` : ""),
      };
    }
    const unpacked = run("tar", ["-xzf", tarball], scratch);
    if (!unpacked.ok) throw new Error(`could not unpack ${tarball}: ${unpacked.output}`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(path.join(scratch, "package"), dir); // whole or nothing: a cache entry is never half written
    return { dir, fetchedSeconds: (Date.now() - started) / 1000 };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
