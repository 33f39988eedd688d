// The install step: the node-llama-cpp build in node_modules is the patched one for the current cache key
// (node-llama-cpp version, native patch hash, platform, arch, GPU, CPU flavor), and skipping the build is said
// out loud.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";

const script = path.resolve(__dirname, "..", "..", "..", "scripts", "buildRuntime.mjs");

function runScript(args: string[], env: Record<string, string> = {}): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [script, ...args], { encoding: "utf8", env: { ...process.env, ...env } });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("scripts/buildRuntime.mjs", () => {
  it("finds the patched build installed under the current key (run `npm ci` if this fails)", () => {
    const { status, output } = runScript(["--check"], { SWARMBOARD_GPU: "false" });
    assert.equal(status, 0, output);
    const flavor = process.env.SWARMBOARD_RUNTIME_BUILD === "native" ? "" : "-cpu-portable";
    const key = new RegExp(
      `patched build nlc-\\d+\\.\\d+\\.\\d+-native-[0-9a-f]{16}-\\w+-\\w+-gpu-false${flavor} already`,
    );
    assert.match(output, key);
    assert.match(output, /localBuild, kvUnified supported, CPU variant /);
    // The portable build (the default, what ships) loads one of its CPU variant libraries; a native one has none.
    if (flavor !== "") assert.doesNotMatch(output, /CPU variant built in/);
  });

  it("refuses an unknown CPU flavor without building anything", () => {
    const { status, output } = runScript(["--check"], { SWARMBOARD_RUNTIME_BUILD: "fastest" });
    assert.equal(status, 1);
    assert.match(output, /SWARMBOARD_RUNTIME_BUILD=fastest is not one of portable, native/);
  });

  it("says loudly that the runtime will be in copy mode when the build is skipped", () => {
    const { status, output } = runScript([], { SWARMBOARD_SKIP_RUNTIME_BUILD: "1" });
    assert.equal(status, 0);
    assert.match(output, /COPY MODE/);
  });

  it("refuses an unknown GPU type without building anything", () => {
    const { status, output } = runScript(["--check"], { SWARMBOARD_GPU: "quantum" });
    assert.equal(status, 1);
    assert.match(output, /SWARMBOARD_GPU=quantum is not one of/);
  });
});
