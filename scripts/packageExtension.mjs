// `npm run package [-- --target <t>|all] [--out <file>]`: the VSIX for a platform (`vsce package --target`): the
// extension and worker bundles, node-llama-cpp's official prebuilt binaries for that target (CPU and the GPU
// variants that fit, scripts/packageTargets.mjs; fetched with `npm pack` into a cache outside the clone,
// scripts/officialBinaries.mjs) and, for the platform this machine is, the patched runtime that
// scripts/buildRuntime.mjs installed (shared cells; the runtime prefers it, src/runtime/binaryChoice.ts). The
// linux-arm64 package carries the cross-built patched runtime (scripts/buildRuntimeCross.mjs, scripts/checkArm64.sh)
// when the build cache holds it for the current key, and says so when it does not (then it runs in copy mode).
//   --target <t>   linux-x64, linux-arm64, darwin-arm64, darwin-x64, win32-x64, or all (default: this machine's)
//   --out <file>   where to write the VSIX, one target only (default dist/swarmboard-<target>.vsix)
//
// For this machine's platform it refuses a native build (-march=native: SIGILL on any CPU older than the build
// machine's) or no patched build at all, saying what to run instead. A target whose official binaries are not in
// the registry at node-llama-cpp's version is not packaged (it would carry no runtime that loads): said, exit 1.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { crossRuntimeEntry, crossTarget } from "./crossRuntimeKey.mjs";
import { nodeLlamaCppVersion, officialBinaries } from "./officialBinaries.mjs";
import { maxPackageBytes, packageTargets, platformOnlyPackages } from "./packageTargets.mjs";

const root = path.resolve(import.meta.dirname, "..");
const llamaDir = path.join(root, "node_modules", "node-llama-cpp", "llama");
const log = (message) => console.log(`[swarmboard package] ${message}`);

function fail(message) {
  console.error(`[swarmboard package] ${message}`);
  process.exit(1);
}

function installedBuildKey() {
  const lastBuild = path.join(llamaDir, "lastBuild.json");
  if (!existsSync(lastBuild)) return undefined;
  const { folderName } = JSON.parse(readFileSync(lastBuild, "utf8"));
  const marker = path.join(llamaDir, "localBuilds", folderName, "swarmboard-build-key.txt");
  return existsSync(marker) ? readFileSync(marker, "utf8").trim() : undefined;
}

/** The portable patched build's key, or a refusal, for a package of this machine's own platform. */
function patchedRuntimeKey() {
  const key = installedBuildKey();
  if (key === undefined) {
    fail("no patched runtime is installed: run `node scripts/buildRuntime.mjs` (portable is its default) first.");
  }
  if (!key.endsWith("-cpu-portable")) {
    fail(
      `the installed runtime ${key} is a native build (-march=native) and would crash on older CPUs; run ` +
        "`SWARMBOARD_RUNTIME_BUILD=portable node scripts/buildRuntime.mjs` (or unset SWARMBOARD_RUNTIME_BUILD) first.",
    );
  }
  return key;
}

/** .vscodeignore plus every installed binary package (official ones are added from the cache), and the patched
 * runtime unless it was built for this target. */
function ignoreFileFor(target, withPatched, dir) {
  const installed = (scope) =>
    existsSync(path.join(root, "node_modules", scope)) ? readdirSync(path.join(root, "node_modules", scope)) : [];
  const foreign = Object.entries(platformOnlyPackages)
    .filter(([name, serves]) => serves !== target && existsSync(path.join(root, "node_modules", name)))
    .map(([name]) => `node_modules/${name}/**`);
  // vsce lets a `!` line win over any exclusion, so for another platform the lines that keep the patched build go.
  const base = readFileSync(path.join(root, ".vscodeignore"), "utf8")
    .split("\n")
    .filter((line) => withPatched || !line.startsWith("!node_modules/node-llama-cpp/llama/localBuilds/"));
  const lines = [
    ...base,
    `# added by scripts/packageExtension.mjs for ${target}: installed binaries (the target's come from the cache)`,
    ...installed("@node-llama-cpp").map((name) => `node_modules/@node-llama-cpp/${name}/**`),
    ...foreign,
    ...(withPatched
      ? []
      : ["node_modules/node-llama-cpp/llama/localBuilds/**", "node_modules/node-llama-cpp/llama/lastBuild.json"]),
  ];
  const file = path.join(dir, "vscodeignore");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

function vscePackage(target, out, ignoreFile) {
  const args = ["--no", "vsce", "package", "--no-yarn", "--target", target, "--out", out, "--ignoreFile", ignoreFile];
  const result = spawnSync("npx", args, {
    cwd: root,
    stdio: "inherit",
    shell: process.platform === "win32", // npx is npx.cmd there, which Node runs only through a shell
  });
  if (result.status !== 0) throw new Error(`vsce package failed (exit ${result.status ?? result.signal})`);
}

/**
 * The cross-built runtime's parts the VSIX carries (those .vscodeignore keeps of a local build: Release/, the done
 * marker and the key; not bin/), as vsixAddFolders pairs; none when the target is not cross-built.
 */
function crossRuntimeParts(target) {
  if (target !== crossTarget || target === `${process.platform}-${process.arch}`) return { parts: [] };
  const { key, dir } = crossRuntimeEntry(root);
  if (!existsSync(path.join(dir, "manifest.json"))) {
    log(
      `${target}: no cross-built patched runtime ${key} (\`node scripts/buildRuntimeCross.mjs\`); official binaries only`,
    );
    return { parts: [] };
  }
  const folder = path.join(dir, "localBuilds", crossTarget);
  const into = `extension/node_modules/node-llama-cpp/llama/localBuilds/${crossTarget}`;
  const parts = ["Release", "buildDone.status", "swarmboard-build-key.txt"].map(
    (part) => `${into}/${part}=${path.join(folder, part)}`,
  );
  return { key, parts };
}

function addToVsix(out, dirs, extraPairs) {
  const pairs = [
    ...dirs.map(({ name, dir }) => `extension/node_modules/@node-llama-cpp/${name}=${dir}`),
    ...extraPairs,
  ];
  const result = spawnSync("python3", [path.join(root, "scripts", "vsixAddFolders.py"), out, ...pairs], {
    stdio: "inherit",
  });
  if (result.status !== 0)
    throw new Error(`adding the official binaries failed (exit ${result.status ?? result.signal})`);
}

/** Builds one target's VSIX; returns its size, or throws with why it was not built. */
function packageTarget(target, out) {
  const { official, leftOut } = packageTargets[target];
  const version = nodeLlamaCppVersion(root);
  const dirs = official.map((name) => ({ name, ...officialBinaries(name, version) }));
  const missing = dirs.filter((d) => d.missing !== undefined);
  if (missing.length > 0) {
    throw new Error(`its official binaries cannot be had: ${missing.map((d) => d.missing).join("; ")}`);
  }
  for (const d of dirs)
    if (d.fetchedSeconds > 0) log(`fetched @node-llama-cpp/${d.name}@${version} in ${d.fetchedSeconds.toFixed(1)} s`);
  const withPatched = target === `${process.platform}-${process.arch}`;
  const cross = crossRuntimeParts(target);
  const key = withPatched ? patchedRuntimeKey() : cross.key;
  log(
    `${target}: official ${official.join(", ")}${key ? `, patched runtime ${key}` : ", no patched runtime"} -> ${out}`,
  );
  for (const [name, why] of Object.entries(leftOut)) log(`${target}: left out @node-llama-cpp/${name}: ${why}`);
  const scratch = mkdtempSync(path.join(os.tmpdir(), "swarmboard-package-"));
  try {
    vscePackage(target, out, ignoreFileFor(target, withPatched, scratch));
    addToVsix(out, dirs, cross.parts);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const bytes = statSync(out).size;
  if (bytes > maxPackageBytes) throw new Error(`the package is ${bytes} bytes, over the limit of ${maxPackageBytes}`);
  return bytes;
}

function argument(name) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const asked = argument("--target") ?? `${process.platform}-${process.arch}`;
const targets = asked === "all" ? Object.keys(packageTargets) : [asked];
if (targets.some((t) => packageTargets[t] === undefined)) {
  fail(`Swarmboard ships no package for ${asked}; targets: ${Object.keys(packageTargets).join(", ")}, all.`);
}
if (argument("--out") !== undefined && targets.length > 1) fail("--out names one VSIX: use it with one --target");
const refused = [];
for (const target of targets) {
  const out = path.resolve(argument("--out") ?? path.join(root, "dist", `swarmboard-${target}.vsix`));
  try {
    const bytes = packageTarget(target, out);
    log(`${out}: ${(bytes / 1e6).toFixed(1)} MB (${bytes.toLocaleString("en-US")} bytes)`);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    refused.push(`${target}: ${why}`);
    console.error(`[swarmboard package] ${target} NOT packaged: ${why}`);
  }
}
if (refused.length > 0) fail(`${refused.length} of ${targets.length} not packaged:\n  ${refused.join("\n  ")}`);
