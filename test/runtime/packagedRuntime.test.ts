// The package a user installs, run on CPUs older than the build machine's: `npm run package` writes the linux-x64
// VSIX, the test unpacks it, puts a probe (the project's runtime code, bundled) next to the extension's own
// bundles so that node-llama-cpp resolves to the packaged copy, and runs it natively and under qemu-x86_64's
// Haswell (AVX2, no AVX-512) and Nehalem (SSE4.2, no AVX) CPU models. Each run must load the packaged patched
// runtime, pick the CPU variant that CPU supports, and generate on shared cells what the native run generates.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ProbeReport } from "./packagedRuntimeProbe";
import { repoRoot, sharedModelPath } from "./runtimeTestModels";
import { bundleRuntimeProbe } from "./runtimeProbeBundle";

const maxVsixBytes = 60 * 1000 * 1000;

function run(
  command: string,
  args: string[],
  cwd: string,
): { status: number | null; signal: string | null; output: string } {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
  return { status: result.status, signal: result.signal, output: `${result.stdout}${result.stderr}` };
}

function probeReport(output: string, what: string): ProbeReport {
  const line = output.split("\n").find((l) => l.startsWith("PROBE "));
  assert.ok(line, `${what}: the probe printed no report:\n${output.slice(-3000)}`);
  return JSON.parse(line.slice("PROBE ".length)) as ProbeReport;
}

describe("the packaged VSIX on older CPUs (linux-x64, qemu-x86_64)", function () {
  this.timeout(15 * 60_000);
  const root = repoRoot();
  let scratch: string;
  let extensionDir: string;
  let probeScript: string;
  let nativeTexts: string[] | undefined;

  before(async () => {
    assert.equal(
      `${process.platform}-${process.arch}`,
      "linux-x64",
      "this test emulates x86-64 CPUs: run it on linux-x64",
    );
    assert.ok(
      existsSync(path.join(root, "dist", "host", "extension.js")),
      "no dist/ bundles: run `npm run build` first",
    );
    scratch = mkdtempSync(path.join(os.tmpdir(), "swarmboard-vsix-"));
    const vsix = path.join(scratch, "swarmboard-linux-x64.vsix");
    const packaged = run(process.execPath, [path.join(root, "scripts", "packageExtension.mjs"), "--out", vsix], root);
    assert.equal(packaged.status, 0, `npm run package failed:\n${packaged.output.slice(-3000)}`);
    const unpacked = run("unzip", ["-q", vsix, "-d", path.join(scratch, "unpacked")], scratch);
    assert.equal(unpacked.status, 0, `unzip failed: ${unpacked.output}`);
    extensionDir = path.join(scratch, "unpacked", "extension");
    probeScript = path.join(extensionDir, "dist", "runtimeProbe.js");
    await bundleRuntimeProbe(root, probeScript);
  });

  after(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("is at most 60 MB, targets linux-x64 and carries the portable patched runtime", () => {
    const vsixBytes = statSync(path.join(scratch, "swarmboard-linux-x64.vsix")).size;
    assert.ok(vsixBytes <= maxVsixBytes, `the VSIX is ${vsixBytes} bytes, over ${maxVsixBytes}`);
    const manifest = readFileSync(path.join(scratch, "unpacked", "extension.vsixmanifest"), "utf8");
    assert.match(manifest, /TargetPlatform="linux-x64"/);
    const llama = path.join(extensionDir, "node_modules", "node-llama-cpp", "llama");
    const { folderName } = JSON.parse(readFileSync(path.join(llama, "lastBuild.json"), "utf8")) as {
      folderName: string;
    };
    const key = readFileSync(path.join(llama, "localBuilds", folderName, "swarmboard-build-key.txt"), "utf8");
    assert.match(key, /-linux-x64-gpu-false-cpu-portable$/m);
    const libraries = readdirSync(path.join(llama, "localBuilds", folderName, "Release"));
    for (const variant of ["x64", "sse42", "haswell", "skylakex"]) {
      assert.ok(
        libraries.includes(`libggml-cpu-${variant}.so`),
        `no ${variant} CPU variant in ${libraries.join(", ")}`,
      );
    }
    // AMX kernels die with SIGILL on KVM guests that report AMX (scripts/runtimeBuildFlavor.mjs, droppedCpuVariants).
    assert.ok(!libraries.includes("libggml-cpu-sapphirerapids.so"), "the AMX variant is left out");
    const prebuilt = readdirSync(path.join(extensionDir, "node_modules", "@node-llama-cpp"));
    assert.deepEqual(
      prebuilt.sort(),
      ["linux-x64", "linux-x64-vulkan"],
      "linux-x64's official CPU and Vulkan binaries ship (the copy-mode fallback and the GPU path), no other",
    );
  });

  it("loads the packaged runtime natively, says which CPU variant it loaded, and shares cells", () => {
    const { status, output } = run(process.execPath, [probeScript, sharedModelPath("stories260K.gguf")], scratch);
    assert.equal(status, 0, output.slice(-3000));
    const report = probeReport(output, "native");
    assert.equal(report.build, "patched-local-build", report.notice ?? "");
    assert.notEqual(report.cpuVariant, "built in", "a portable build loads one of its CPU variant libraries");
    assert.equal(report.mode, "shared-cells");
    assert.equal(report.trunkOwners, 2);
    assert.equal(report.texts[0], report.texts[1], "greedy decoding of one trunk gives one text");
    assert.match(report.texts[0], /^, there was a little/);
    nativeTexts = report.texts;
    console.log(`      native CPU variant: ${report.cpuVariant}`);
  });

  for (const [cpu, variant] of [
    ["Haswell", "haswell"],
    ["Nehalem", "sse42"],
  ] as const) {
    it(`loads and generates under qemu-x86_64 -cpu ${cpu} with the ${variant} variant`, () => {
      const qemu = spawnSync("qemu-x86_64", ["-version"], { encoding: "utf8" });
      assert.equal(qemu.status, 0, "qemu-x86_64 is missing: apt-get install qemu-user (scripts/setup.sh does)");
      const model = sharedModelPath("stories260K.gguf");
      const { status, signal, output } = run(
        "qemu-x86_64",
        ["-cpu", cpu, process.execPath, probeScript, model],
        scratch,
      );
      assert.equal(signal, null, `the packaged runtime died with ${signal} on ${cpu}:\n${output.slice(-3000)}`);
      assert.equal(status, 0, output.slice(-3000));
      const report = probeReport(output, cpu);
      assert.equal(report.build, "patched-local-build", report.notice ?? "");
      assert.equal(report.cpuVariant, variant);
      assert.equal(report.mode, "shared-cells");
      assert.equal(report.trunkOwners, 2);
      assert.ok(nativeTexts, "the native run must pass first");
      assert.deepEqual(report.texts, nativeTexts, `${cpu} must generate what the native CPU generates`);
    });
  }
});
