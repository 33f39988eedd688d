// `swarmboard runtime build` on an install that has no patched runtime (like a package for a platform it was not
// built for): a fresh install folder (this checkout's CLI bundle, builder scripts and patch, a copy of node-llama-cpp
// without its local builds or llama.cpp source, every other package linked) and a fresh cache holding this
// machine's real build under its key. PATH holds only node: a cache hit needs no compiler. Before, the runtime runs
// the official binaries in copy mode; the command installs the cached build; the next process's runtime loads it and
// shares cells, with no reinstall. The full compile (a cache miss) is not run here: minutes of CPU (see the report).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { removeDir, tempDir } from "../unit/workspace/gitFixture";
import type { ProbeReport } from "./packagedRuntimeProbe";
import { freshInstall, repoRoot } from "./runtimeBuildInstall";
import { bundleRuntimeProbe } from "./runtimeProbeBundle";
import { sharedModelPath } from "./runtimeTestModels";

describe("swarmboard runtime build: a cached build installed into a fresh install", function () {
  this.timeout(600_000);
  let dir: string;
  let root: string;
  let env: NodeJS.ProcessEnv;
  let key: string;

  before(async () => {
    const status = spawnSync(process.execPath, [path.join(repoRoot, "scripts/buildRuntime.mjs"), "--status"], {
      encoding: "utf8",
      env: { ...process.env, SWARMBOARD_RUNTIME_BUILD: "portable" },
    });
    const real = JSON.parse(status.stdout.trim()) as { key: string; cacheDir: string; cached: boolean };
    assert.ok(real.cached, `this machine's build ${real.key} is not in the cache: run npm ci first`);
    key = real.key;
    dir = tempDir("runtime-cache-hit");
    root = freshInstall(dir);
    cpSync(real.cacheDir, path.join(dir, "cache", key), { recursive: true });
    const bin = path.join(dir, "bin");
    mkdirSync(bin);
    symlinkSync(process.execPath, path.join(bin, "node"));
    env = { HOME: dir, PATH: bin, SWARMBOARD_BUILD_CACHE: path.join(dir, "cache") };
    await bundleRuntimeProbe(repoRoot, path.join(root, "dist", "runtimeProbe.js"));
  });

  after(() => removeDir(dir));

  function probe(): ProbeReport {
    const script = path.join(root, "dist", "runtimeProbe.js");
    const result = spawnSync(process.execPath, [script, sharedModelPath("stories260K.gguf")], {
      cwd: dir,
      encoding: "utf8",
      timeout: 300_000,
    });
    const line = result.stdout.split("\n").find((l) => l.startsWith("PROBE "));
    assert.ok(line !== undefined, `the probe printed no report:\n${result.stdout}\n${result.stderr.slice(-2000)}`);
    return JSON.parse(line.slice("PROBE ".length)) as ProbeReport;
  }

  function runtimeBuild(): { status: number | null; stdout: string; stderr: string } {
    const cli = path.join(root, "dist/cli/main.js");
    return spawnSync(process.execPath, [cli, "runtime", "build"], { env, encoding: "utf8", timeout: 300_000 });
  }

  it("runs the official binaries in copy mode before", () => {
    const report = probe();
    assert.equal(report.build, "stock-prebuilt");
    assert.notEqual(report.mode, "shared-cells");
  });

  it("installs the cached build without a compiler, then says it is already built", () => {
    const first = runtimeBuild();
    assert.equal(first.status, 0, `${first.stdout}\n${first.stderr}`);
    assert.ok(first.stdout.includes(`Installed ${key} from the cache`), first.stdout);
    assert.match(first.stdout, /cache hit: .*kvUnified supported/);
    const llama = path.join(root, "node_modules/node-llama-cpp/llama");
    const { folderName } = JSON.parse(readFileSync(path.join(llama, "lastBuild.json"), "utf8")) as {
      folderName: string;
    };
    const marker = readFileSync(path.join(llama, "localBuilds", folderName, "swarmboard-build-key.txt"), "utf8");
    assert.equal(marker.trim(), key);
    const second = runtimeBuild();
    assert.equal(second.status, 0, `${second.stdout}\n${second.stderr}`);
    assert.ok(second.stdout.includes(`Already built: ${key} is installed`), second.stdout);
  });

  it("is loaded by the next process's runtime, which shares cells", () => {
    const report = probe();
    assert.equal(report.build, "patched-local-build", report.notice ?? "");
    assert.equal(report.mode, "shared-cells");
    assert.equal(report.trunkOwners, 2);
  });
});
