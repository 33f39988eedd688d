// The patched (shared-cells) runtime built for Vulkan, run here by scripts/checkGpuVulkan.sh on Mesa's software
// Vulkan device (lavapipe) after it builds that runtime (`scripts/buildRuntime.mjs --gpu vulkan`, cached by key):
// the runtime probe (test/runtime/packagedRuntimeProbe.ts: a trunk, two agents forked from it, greedy decode) runs
// once on the CPU build and once with `gpu: vulkan`. On the device it must load the patched build (not the official
// binary in copy mode), keep one unified pool (the trunk's cells owned by both agents), offload every layer with the
// KV cells in VRAM, and generate the CPU build's greedy tokens.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import type { ProbeReport } from "../runtime/packagedRuntimeProbe";
import { bundleRuntimeProbe } from "../runtime/runtimeProbeBundle";
import { repoRoot, sharedModelPath } from "../runtime/runtimeTestModels";

const lavapipe = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

function probe(file: string, gpu: "vulkan" | undefined): { report: ProbeReport; seconds: number } {
  const started = Date.now();
  const args = [file, sharedModelPath("stories260K.gguf"), ...(gpu ? [gpu] : [])];
  // ggml's Vulkan backend skips CPU-type devices such as lavapipe unless named; the ICD file keeps the loader on it.
  const env = { ...process.env, GGML_VK_VISIBLE_DEVICES: "0", VK_ICD_FILENAMES: lavapipe };
  const run = spawnSync(process.execPath, args, { encoding: "utf8", env, maxBuffer: 64 * 1024 * 1024 });
  const output = `${run.stdout}${run.stderr}`;
  assert.equal(run.status, 0, `the ${gpu ?? "cpu"} probe failed:\n${output.slice(-4000)}`);
  const line = output.split("\n").find((l) => l.startsWith("PROBE "));
  assert.ok(line, `the ${gpu ?? "cpu"} probe printed no report:\n${output.slice(-4000)}`);
  return { report: JSON.parse(line.slice("PROBE ".length)) as ProbeReport, seconds: (Date.now() - started) / 1000 };
}

describe("the patched shared-cells runtime built for Vulkan, on lavapipe (stories260K)", function () {
  this.timeout(30 * 60_000);
  const root = repoRoot();
  const file = path.join(root, "out", "test", "gpu", "vulkanRuntimeProbe.js");

  before(async () => {
    assert.equal(`${process.platform}-${process.arch}`, "linux-x64", "lavapipe's ICD file here is x86_64's");
    assert.ok(existsSync(lavapipe), `no lavapipe (${lavapipe}): apt-get install mesa-vulkan-drivers libvulkan1`);
    const build = path.join(root, "node_modules", "node-llama-cpp", "llama", "localBuilds", "linux-x64-vulkan");
    assert.ok(existsSync(build), `no patched Vulkan build at ${build}: run scripts/checkGpuVulkan.sh, which builds it`);
    await bundleRuntimeProbe(root, file);
  });

  after(() => rmSync(file, { force: true }));

  it("loads the patched build on the device, shares the trunk's cells, and generates the CPU build's tokens", () => {
    const cpu = probe(file, undefined);
    assert.equal(cpu.report.build, "patched-local-build", cpu.report.notice ?? "");
    assert.equal(cpu.report.placement.backend, "cpu");
    const vulkan = probe(file, "vulkan");
    const { report } = vulkan;
    assert.equal(report.build, "patched-local-build", `not the official binary in copy mode: ${report.notice ?? ""}`);
    assert.equal(report.mode, "shared-cells");
    assert.equal(report.trunkOwners, 2, "the trunk's cells are owned by both agents");
    const { placement } = report;
    assert.equal(placement.backend, "vulkan");
    assert.match(placement.devices.join(", "), /llvmpipe/);
    assert.ok(placement.modelLayers > 0 && placement.gpuLayers === placement.modelLayers, JSON.stringify(placement));
    assert.equal(placement.kvOn, "vram");
    assert.deepEqual(report.texts, cpu.report.texts, "the device generates the CPU build's greedy tokens");
    assert.ok(
      report.texts.every((t) => t.length > 0),
      `each agent generated: ${JSON.stringify(report.texts)}`,
    );
    console.log(
      `      greedy texts ${JSON.stringify(report.texts)}; probe on lavapipe ${vulkan.seconds.toFixed(1)} s, ` +
        `on the CPU ${cpu.seconds.toFixed(1)} s`,
    );
  });
});
