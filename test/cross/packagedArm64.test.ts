// The linux-arm64 package a user installs, run on an x64 machine under qemu-aarch64: `npm run package -- --target
// linux-arm64` writes the VSIX with the cross-built patched runtime (scripts/buildRuntimeCross.mjs), the test unpacks
// it, puts the probe (the project's runtime code, bundled) next to the extension's bundles so that node-llama-cpp
// resolves to the packaged copy, and runs it with Node's own arm64 build (scripts/arm64Node.mjs) on an emulated
// Cortex-A53 (armv8.0-a: no dotprod, no SVE), the baseline the cross build targets. It must load the packaged patched
// runtime and generate on shared cells, two agents forked from one trunk, what the native x64 runtime generates.
// A runtime-level swarm (trunk, forks, batched greedy decode), not the CLI's: the CLI starts the worker as a child
// process, and under qemu-user without binfmt_misc (containers, CI) a child arm64 Node cannot be started. For the
// same reason the official binary (copy mode) cannot be checked here: node-llama-cpp test-loads a prebuilt binary in
// a child process first (seen: "Binding binary test failed to run a test process"); a local build made for the same
// distribution is loaded without that test.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ProbeReport } from "../runtime/packagedRuntimeProbe";
import { repoRoot, sharedModelPath } from "../runtime/runtimeTestModels";
import { bundleRuntimeProbe } from "../runtime/runtimeProbeBundle";

function run(
  command: string,
  args: string[],
  cwd: string,
): { status: number | null; signal: string | null; output: string; seconds: number } {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
  const seconds = (Date.now() - started) / 1000;
  return { status: result.status, signal: result.signal, output: `${result.stdout}${result.stderr}`, seconds };
}

function probeReport(output: string, what: string): ProbeReport {
  const line = output.split("\n").find((l) => l.startsWith("PROBE "));
  assert.ok(line, `${what}: the probe printed no report:\n${output.slice(-3000)}`);
  return JSON.parse(line.slice("PROBE ".length)) as ProbeReport;
}

describe("the linux-arm64 package under qemu-aarch64 (cross-built shared-cells runtime)", function () {
  this.timeout(20 * 60_000);
  const root = repoRoot();
  let scratch: string;
  let extensionDir: string;
  const nativeProbe = path.join(root, "out", "test", "cross", "nativeRuntimeProbe.js");

  before(async () => {
    assert.equal(`${process.platform}-${process.arch}`, "linux-x64", "this test emulates arm64: run it on linux-x64");
    assert.ok(existsSync(path.join(root, "dist", "host", "extension.js")), "no dist/ bundles: run `npm run build`");
    scratch = mkdtempSync(path.join(os.tmpdir(), "swarmboard-arm64-"));
    const vsix = path.join(scratch, "swarmboard-linux-arm64.vsix");
    const script = path.join(root, "scripts", "packageExtension.mjs");
    const packaged = run(process.execPath, [script, "--target", "linux-arm64", "--out", vsix], root);
    assert.equal(
      packaged.status,
      0,
      `npm run package -- --target linux-arm64 failed:\n${packaged.output.slice(-3000)}`,
    );
    const unpacked = run("unzip", ["-q", vsix, "-d", path.join(scratch, "unpacked")], scratch);
    assert.equal(unpacked.status, 0, `unzip failed: ${unpacked.output}`);
    extensionDir = path.join(scratch, "unpacked", "extension");
    await bundleRuntimeProbe(root, path.join(extensionDir, "dist", "runtimeProbe.js"));
    // The native reference beside the compiled tests, where node-llama-cpp resolves to the clone's x64 runtime.
    await bundleRuntimeProbe(root, nativeProbe);
  });

  after(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    rmSync(nativeProbe, { force: true });
  });

  it("carries the cross-built armv8-a runtime and the official linux-arm64 binary", () => {
    const build = path.join(extensionDir, "node_modules", "node-llama-cpp", "llama", "localBuilds", "linux-arm64");
    const key = readFileSync(path.join(build, "swarmboard-build-key.txt"), "utf8");
    assert.match(key, /-linux-arm64-gpu-false-cpu-armv8-a$/m);
    const libraries = readdirSync(path.join(build, "Release"));
    // libllama and libggml carry the build's option hash in their names (libllama.v0.5.0.<hash>.so).
    for (const library of ["llama-addon.node", "libggml-base.so", "libllama.", "libggml-cpu.so"]) {
      assert.ok(
        libraries.some((name) => name === library || (library.endsWith(".") && name.startsWith(library))),
        `no ${library} in ${libraries.join(", ")}`,
      );
    }
    const prebuilt = readdirSync(path.join(extensionDir, "node_modules", "@node-llama-cpp"));
    assert.deepEqual(prebuilt, ["linux-arm64"], "the official binary stays as the copy-mode fallback");
  });

  it("generates on shared cells under qemu-aarch64 -cpu cortex-a53 what the native x64 runtime generates", () => {
    const model = sharedModelPath("stories260K.gguf");
    const native = run(process.execPath, [nativeProbe, model], scratch);
    assert.equal(native.status, 0, native.output.slice(-3000));
    const reference = probeReport(native.output, "native x64");
    assert.equal(reference.mode, "shared-cells");

    const arm64Node = run(process.execPath, [path.join(root, "scripts", "arm64Node.mjs")], root);
    assert.equal(arm64Node.status, 0, `no arm64 node: ${arm64Node.output}`);
    const nodeBinary = arm64Node.output.trim().split("\n").at(-1)!;
    const qemuArgs = ["-L", "/usr/aarch64-linux-gnu", "-cpu", "cortex-a53", nodeBinary];
    const emulated = run(
      "qemu-aarch64",
      [...qemuArgs, path.join(extensionDir, "dist", "runtimeProbe.js"), model],
      scratch,
    );
    assert.equal(emulated.signal, null, `died with ${emulated.signal} under qemu:\n${emulated.output.slice(-3000)}`);
    assert.equal(emulated.status, 0, emulated.output.slice(-3000));
    const report = probeReport(emulated.output, "qemu-aarch64");
    assert.equal(report.build, "patched-local-build", report.notice ?? "");
    assert.ok(
      report.cpuVariant.endsWith("/localBuilds/linux-arm64/Release/libggml-cpu.so"),
      `the packaged armv8-a CPU library, not ${report.cpuVariant}`,
    );
    assert.equal(report.mode, "shared-cells");
    assert.equal(report.trunkOwners, 2);
    assert.deepEqual(report.texts, reference.texts, "arm64 must generate what x64 generates");
    console.log(`      qemu-aarch64 probe: ${emulated.seconds.toFixed(1)} s; native: ${native.seconds.toFixed(1)} s`);
  });
});
