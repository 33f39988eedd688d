// `npm run package`: the VSIX for this machine's platform (`vsce package --target`), carrying the patched runtime
// that scripts/buildRuntime.mjs installed. A package for another platform is built on that platform (the CI
// workflow .github/workflows/package.yml), because the runtime is compiled there.
//
// Refuses to package a native build (-march=native: it dies with SIGILL on any CPU older than the build machine's)
// or no patched build at all, saying what to run instead.
//   --out <file>   where to write the VSIX (default dist/swarmboard-<target>.vsix)
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const llamaDir = path.join(root, "node_modules", "node-llama-cpp", "llama");

/** vsce's platform names (https://code.visualstudio.com/api/working-with-extensions/publishing-extension#platformspecific-extensions). */
const vsceTargets = {
  "linux-x64": "linux-x64",
  "linux-arm64": "linux-arm64",
  "darwin-x64": "darwin-x64",
  "darwin-arm64": "darwin-arm64",
  "win32-x64": "win32-x64",
};

/** node-llama-cpp's official CPU binaries for each target: the fallback (copy mode) when the patched build fails. */
const prebuiltPackage = {
  "linux-x64": "linux-x64",
  "linux-arm64": "linux-arm64",
  "darwin-x64": "mac-x64",
  "darwin-arm64": "mac-arm64-metal",
  "win32-x64": "win-x64",
};

/** .vscodeignore plus every installed @node-llama-cpp package that is not this target's fallback. */
function ignoreFileFor(target, dir) {
  const prebuiltDir = path.join(root, "node_modules", "@node-llama-cpp");
  const others = existsSync(prebuiltDir)
    ? readdirSync(prebuiltDir).filter((name) => name !== prebuiltPackage[target])
    : [];
  const lines = [
    readFileSync(path.join(root, ".vscodeignore"), "utf8"),
    `# added by scripts/packageExtension.mjs for ${target}: other platforms' and GPU prebuilt binaries`,
    ...others.map((name) => `node_modules/@node-llama-cpp/${name}/**`),
  ];
  const file = path.join(dir, "vscodeignore");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

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

const target = vsceTargets[`${process.platform}-${process.arch}`];
if (target === undefined) {
  fail(`Swarmboard ships no package for ${process.platform}-${process.arch}; see README, Platforms.`);
}
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
const outAt = process.argv.indexOf("--out");
const out = outAt >= 0 ? path.resolve(process.argv[outAt + 1]) : path.join(root, "dist", `swarmboard-${target}.vsix`);
console.log(`[swarmboard package] ${target} with runtime ${key} -> ${out}`);
const scratch = mkdtempSync(path.join(os.tmpdir(), "swarmboard-package-"));
const args = ["--no", "vsce", "package", "--no-yarn", "--target", target, "--out", out];
const result = spawnSync("npx", [...args, "--ignoreFile", ignoreFileFor(target, scratch)], {
  cwd: root,
  stdio: "inherit",
  shell: process.platform === "win32", // npx is npx.cmd there, which Node runs only through a shell
});
rmSync(scratch, { recursive: true, force: true });
if (result.status !== 0) fail(`vsce package failed (exit ${result.status ?? result.signal})`);
const bytes = statSync(out).size;
console.log(`[swarmboard package] ${out}: ${(bytes / 1e6).toFixed(1)} MB (${bytes.toLocaleString("en-US")} bytes)`);
