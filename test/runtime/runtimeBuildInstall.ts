// An install folder like an unpacked extension's, for the tests of `swarmboard runtime build` (a cache hit, a failed
// and a cancelled build): this checkout's CLI bundle, builder scripts and patch, a copy of node-llama-cpp without
// its local builds or llama.cpp source, every other package linked, and no node_modules/.bin (a VSIX carries none).
// The shared node_modules is never built in: node-llama-cpp's build replaces its llama.cpp source folder and writes
// into localBuilds.
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { repoRoot as findRepoRoot } from "./runtimeTestModels";

export const repoRoot = findRepoRoot();
const modules = path.join(repoRoot, "node_modules");
const nlcLlama = path.join(modules, "node-llama-cpp", "llama");
const skippedInCopy = new Set(["llama.cpp", "gitRelease.bundle", "localBuilds", "lastBuild.json"]);

export interface InstallOptions {
  /** Link node-llama-cpp's bundled llama.cpp source (llama/gitRelease.bundle), so a build needs no network. */
  readonly source?: boolean;
  /** Install a copy of this checkout's local build (what loads) with this key in its marker file. */
  readonly installedKey?: string;
}

/** The install's node-llama-cpp/llama folder. */
export function llamaDirOf(root: string): string {
  return path.join(root, "node_modules", "node-llama-cpp", "llama");
}

/** The folder of this checkout's installed local build (linux-x64 here). */
export function installedFolder(): string {
  return (JSON.parse(readFileSync(path.join(nlcLlama, "lastBuild.json"), "utf8")) as { folderName: string }).folderName;
}

export function freshInstall(dir: string, options: InstallOptions = {}): string {
  const root = path.join(dir, "install");
  for (const file of ["scripts/buildRuntime.mjs", "scripts/runtimeBuildFlavor.mjs", "scripts/lib/buildSteps.mjs"]) {
    cpSync(path.join(repoRoot, file), path.join(root, file));
  }
  for (const patch of readdirSync(path.join(repoRoot, "patches"))) {
    cpSync(path.join(repoRoot, "patches", patch), path.join(root, "patches", patch));
  }
  cpSync(path.join(repoRoot, "dist/cli/main.js"), path.join(root, "dist/cli/main.js"));
  mkdirSync(path.join(root, "node_modules"));
  for (const name of readdirSync(modules)) {
    if (name !== "node-llama-cpp" && name !== ".bin") {
      symlinkSync(path.join(modules, name), path.join(root, "node_modules", name));
    }
  }
  cpSync(path.join(modules, "node-llama-cpp"), path.join(root, "node_modules/node-llama-cpp"), {
    recursive: true,
    filter: (from) => !skippedInCopy.has(path.basename(from)) || !from.includes(`${path.sep}llama${path.sep}`),
  });
  const llama = llamaDirOf(root);
  if (options.source === true)
    symlinkSync(path.join(nlcLlama, "gitRelease.bundle"), path.join(llama, "gitRelease.bundle"));
  if (options.installedKey !== undefined) {
    const folder = installedFolder();
    for (const part of ["Release", "bin", "buildDone.status"]) {
      cpSync(path.join(nlcLlama, "localBuilds", folder, part), path.join(llama, "localBuilds", folder, part), {
        recursive: true,
      });
    }
    writeFileSync(path.join(llama, "localBuilds", folder, "swarmboard-build-key.txt"), `${options.installedKey}\n`);
    writeFileSync(path.join(llama, "lastBuild.json"), JSON.stringify({ folderName: folder }, null, 4));
  }
  return root;
}
