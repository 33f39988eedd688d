// Every platform's package against what that platform must hold: `npm run package -- --target <t>` for each of the
// five targets, then the VSIX's manifest target, each native file expected (the addon and its libraries, in that
// platform's library suffix, for node-llama-cpp's official CPU and GPU binaries and, on this machine's platform, the
// patched runtime; for linux-arm64 the cross-built patched runtime, an arm64 binary, whenever the build cache holds
// it: scripts/buildRuntimeCross.mjs, run by scripts/checkArm64.sh), nothing of another platform, and sizes. A target whose official binaries are not in the registry
// must be refused with that said, never packaged without a runtime. Needs dist/ (npm run build), the patched runtime
// (npm ci) and the npm registry (the first run fetches the official binaries into ~/.cache/swarmboard).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(__dirname, "..", "..", "..", "..");
const maxPackageBytes = 60 * 1000 * 1000;
/** A real addon or library is far bigger; an LFS pointer or a truncated file is not. */
const minNativeBytes = 20 * 1000;

interface Expected {
  /** Official packages, each with its bins/ folder and the files (by prefix) that folder must hold. */
  readonly official: Readonly<Record<string, readonly string[]>>;
  readonly suffix: ".so" | ".dylib" | ".dll";
  readonly patched: boolean;
}

const here = `${process.platform}-${process.arch}`;

/** Whether the cross-built linux-arm64 runtime is in the build cache for the current key (then the package has it). */
function crossBuilt(): boolean {
  const script = path.join(root, "scripts", "buildRuntimeCross.mjs");
  return spawnSync(process.execPath, [script, "--print-path"], { stdio: "ignore" }).status === 0;
}
const expected: Readonly<Record<string, Expected>> = {
  "linux-x64": {
    official: {
      "linux-x64": ["llama-addon.node", "libggml-base", "libllama", "libggml-cpu-x64", "libggml-cpu-haswell"],
      "linux-x64-vulkan": ["llama-addon.node", "libggml-base", "libllama", "libggml-vulkan"],
    },
    suffix: ".so",
    patched: here === "linux-x64",
  },
  "linux-arm64": {
    official: { "linux-arm64": ["llama-addon.node", "libggml-base", "libllama", "libggml-cpu-armv8"] },
    suffix: ".so",
    patched: here === "linux-arm64" || crossBuilt(),
  },
  "darwin-arm64": {
    official: { "mac-arm64-metal": ["llama-addon.node", "libggml-base", "libllama", "libggml-metal"] },
    suffix: ".dylib",
    patched: here === "darwin-arm64",
  },
  "darwin-x64": {
    official: { "mac-x64": ["llama-addon.node", "libggml-base", "libllama"] },
    suffix: ".dylib",
    patched: here === "darwin-x64",
  },
  "win32-x64": {
    official: {
      "win-x64": ["llama-addon.node", "ggml-base", "llama"],
      "win-x64-vulkan": ["llama-addon.node", "ggml-base", "llama", "ggml-vulkan"],
    },
    suffix: ".dll",
    patched: here === "win32-x64",
  },
};

/** Every entry of a zip with its uncompressed size. */
function zipEntries(vsix: string): Map<string, number> {
  const list = spawnSync(
    "python3",
    [
      "-c",
      "import json,sys,zipfile; print(json.dumps({i.filename: i.file_size for i in zipfile.ZipFile(sys.argv[1]).infolist()}))",
      vsix,
    ],
    { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  assert.equal(list.status, 0, `could not list ${vsix}: ${list.stderr}`);
  return new Map(Object.entries(JSON.parse(list.stdout) as Record<string, number>));
}

function checkNativeFiles(target: string, entries: Map<string, number>): void {
  const { official, suffix } = expected[target]!;
  for (const [name, prefixes] of Object.entries(official)) {
    const bins = `extension/node_modules/@node-llama-cpp/${name}/bins/${name}/`;
    assert.ok(
      entries.has(`extension/node_modules/@node-llama-cpp/${name}/package.json`),
      `${target}: ${name}'s package.json`,
    );
    assert.ok(entries.has(`${bins}_nlcBuildMetadata.json`), `${target}: ${name}'s build metadata`);
    for (const prefix of prefixes) {
      const file = [...entries.keys()].find(
        (entry) => entry.startsWith(`${bins}${prefix}`) && (entry.endsWith(".node") || entry.endsWith(suffix)),
      );
      assert.ok(file, `${target}: no ${prefix}*${suffix} in ${bins}`);
      assert.ok(entries.get(file)! >= minNativeBytes, `${target}: ${file} is only ${entries.get(file)} bytes`);
    }
  }
  const packages = new Set(
    [...entries.keys()]
      .map((entry) => /^extension\/node_modules\/@node-llama-cpp\/([^/]+)\//.exec(entry)?.[1])
      .filter((name) => name !== undefined),
  );
  assert.deepEqual([...packages].sort(), Object.keys(official).sort(), `${target}: only its own official binaries`);
  const foreign = [...entries.keys()].filter(
    (entry) => entry.endsWith(".node") && !entry.includes("@node-llama-cpp/") && !entry.includes("/localBuilds/"),
  );
  // Other native modules (@reflink's, for model downloads) ship only in the target's own build.
  for (const entry of foreign) assert.ok(entry.includes(target), `${target}: ${entry} is another platform's`);
}

/** The ELF machine of a file in the VSIX (62 = x86-64, 183 = AArch64). */
function elfMachine(vsix: string, entry: string): number {
  const bytes = spawnSync("unzip", ["-p", vsix, entry], { maxBuffer: 256 * 1024 * 1024 }).stdout;
  assert.equal(bytes.readUInt32BE(0), 0x7f454c46, `${entry} is not an ELF file`);
  return bytes.readUInt16LE(18);
}

/** linux-arm64's cross-built runtime: in linux-arm64/ (where getLlama() looks there), armv8-a, arm64 code. */
function checkCrossBuilt(vsix: string, patched: readonly string[], entries: Map<string, number>): void {
  const release = "extension/node_modules/node-llama-cpp/llama/localBuilds/linux-arm64/Release/";
  // libllama carries the build's option hash in its name (libllama.v0.5.0.<hash>.so).
  for (const prefix of ["llama-addon.node", "libggml-base.so", "libllama.", "libggml-cpu.so"]) {
    const file = [...entries.keys()].find((entry) => entry.startsWith(`${release}${prefix}`));
    assert.ok(file && entries.get(file)! >= minNativeBytes, `linux-arm64: the patched runtime's ${prefix}`);
  }
  assert.equal(elfMachine(vsix, `${release}llama-addon.node`), 183, "linux-arm64: the patched addon is arm64 code");
  const keyFile = patched.find((entry) => entry.endsWith("/linux-arm64/swarmboard-build-key.txt"));
  assert.ok(keyFile, "linux-arm64: the build key");
  const key = spawnSync("unzip", ["-p", vsix, keyFile], { encoding: "utf8" }).stdout;
  assert.match(key, /-linux-arm64-gpu-false-cpu-armv8-a$/m);
}

function checkPatched(target: string, vsix: string, entries: Map<string, number>): void {
  const release = "extension/node_modules/node-llama-cpp/llama/localBuilds/";
  const patched = [...entries.keys()].filter((entry) => entry.startsWith(release));
  if (!expected[target]!.patched) {
    assert.deepEqual(patched, [], `${target}: no patched runtime built for another platform`);
    return;
  }
  const addon = patched.find((entry) => entry.endsWith("/Release/llama-addon.node"));
  assert.ok(addon, `${target}: the patched runtime's addon`);
  assert.ok(
    patched.some((entry) => entry.endsWith("/swarmboard-build-key.txt")),
    `${target}: the build key`,
  );
  if (target === "linux-arm64" && here !== "linux-arm64") checkCrossBuilt(vsix, patched, entries);
}

describe("the package of each platform (npm run package -- --target <t>)", function () {
  this.timeout(20 * 60_000);
  let scratch: string;
  before(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), "swarmboard-packages-"));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  for (const target of Object.keys(expected)) {
    it(`${target}: its manifest target, its native files and sizes, or a refusal that says why`, () => {
      const vsix = path.join(scratch, `swarmboard-${target}.vsix`);
      const script = path.join(root, "scripts", "packageExtension.mjs");
      const run = spawnSync(process.execPath, [script, "--target", target, "--out", vsix], {
        cwd: root,
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      });
      const output = `${run.stdout}${run.stderr}`;
      if (run.status !== 0) {
        // Only a registry without the pinned binaries may stop a package; never a build error.
        assert.match(
          output,
          /NOT packaged: its official binaries cannot be had: @node-llama-cpp\/\S+@\S+ is not in the npm registry/,
          output.slice(-3000),
        );
        return;
      }
      const bytes = statSync(vsix).size;
      assert.ok(bytes <= maxPackageBytes, `${target}: ${bytes} bytes, over ${maxPackageBytes}`);
      const entries = zipEntries(vsix);
      const manifest = spawnSync("unzip", ["-p", vsix, "extension.vsixmanifest"], { encoding: "utf8" }).stdout;
      assert.match(manifest, new RegExp(`TargetPlatform="${target}"`));
      for (const bundle of [
        "dist/host/extension.js",
        "dist/worker/main.js",
        "dist/cli/main.js",
        "dist/webview/main.js",
      ]) {
        assert.ok(entries.has(`extension/${bundle}`), `${target}: ${bundle}`);
      }
      checkNativeFiles(target, entries);
      checkPatched(target, vsix, entries);
    });
  }
});
