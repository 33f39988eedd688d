// The GPU path, run here by scripts/checkGpuVulkan.sh (not a CI tier: on lavapipe each generation step of this swarm
// takes seconds, 15 minutes in all on a loaded 2-core machine): Mesa's software Vulkan device (lavapipe: apt
// mesa-vulkan-drivers libvulkan1, which the script installs) stands in for a GPU, and node-llama-cpp's official linux-x64-vulkan binary (what
// the linux-x64 package carries) runs a scripted swarm with --gpu vulkan: every layer offloaded, and the launch and
// the KV budget say the device, the layers offloaded and that the KV cells live in VRAM. No patched Vulkan build is
// installed, so it runs in copy mode, and says why. ggml's Vulkan backend skips CPU-type devices such as lavapipe
// unless they are named (GGML_VK_VISIBLE_DEVICES); VK_ICD_FILENAMES keeps the loader on lavapipe alone.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import type { TurnScript } from "../../src/protocol/turnScript";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { makeSampleRepo, ofType, repoRoot, testRecipe } from "../swarm/swarmFixtures";

function agentScript(n: number): TurnScript["agents"][string] {
  return [
    { tool: "post_finding", args: { kind: "OBSERVED", text: `agent-${n} ran on lavapipe` } },
    { tool: "grep_board", args: {} },
    { tool: "finish", args: { summary: `agent-${n} is done` } },
  ];
}

const lavapipe = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

describe("a scripted swarm on a Vulkan device (lavapipe, official linux-x64-vulkan binary, CLI, stories260K)", function () {
  this.timeout(30 * 60_000);
  before(() => {
    assert.equal(`${process.platform}-${process.arch}`, "linux-x64", "lavapipe's ICD file here is x86_64's");
    assert.ok(existsSync(lavapipe), `no lavapipe (${lavapipe}): apt-get install mesa-vulkan-drivers libvulkan1`);
  });

  it("offloads every layer to the device, and the launch and the KV budget name the device and the KV in VRAM", () => {
    const repo = makeSampleRepo();
    const recipeFile = path.join(repo.root, "e2e.json");
    // Copy mode gives each sequence its own stream of the pool: the trunk plus an agent's tail must fit one stream.
    // Only the board's tools, so the trunk (charter and tool schemas) stays small, and a pool twice the usual.
    const recipe = testRecipe(2, 30 * 60_000);
    const roles = recipe.roles.map((role) => ({ ...role, tools: ["grep_board", "post_finding"] }));
    writeFileSync(recipeFile, JSON.stringify({ ...recipe, roles, budgets: { ...recipe.budgets, kvCells: 65_536 } }));
    const scriptFile = path.join(repo.root, "script.json");
    const script: TurnScript = { agents: { "agent-1": agentScript(1), "agent-2": agentScript(2) } };
    writeFileSync(scriptFile, JSON.stringify(script));
    const cli = path.join(repoRoot(), "dist", "cli", "main.js");
    const args = [
      cli,
      "run",
      "--no-server",
      "--goal",
      "Fix median for even-length lists",
      "--recipe",
      recipeFile,
      "--script",
    ];
    const run = spawnSync(
      process.execPath,
      [
        ...args,
        scriptFile,
        "--model",
        sharedModelPath("stories260K.gguf"),
        "--workspace",
        repo.workspace,
        "--state-dir",
        repo.stateDir,
        "--threads",
        "1",
        "--plain",
        "--gpu",
        "vulkan",
      ],
      {
        encoding: "utf8",
        env: { ...process.env, GGML_VK_VISIBLE_DEVICES: "0", VK_ICD_FILENAMES: lavapipe },
        input: "",
      },
    );
    const output = `${run.stdout}\n${run.stderr}`;
    assert.equal(run.status, 0, `the run failed:\n${output.slice(-4000)}`);
    assert.match(
      run.stderr,
      /no patched build for vulkan is installed here\. Running node-llama-cpp's official binaries in COPY MODE/,
    );
    assert.match(run.stdout, /cells on vulkan \((\d+)\/\1 layers offloaded\)/, "the launch line: all layers offloaded");
    assert.match(
      run.stdout,
      /KV copy-mode[^:\n]* on vulkan \(llvmpipe.*\) (\d+)\/\1 layers, KV in vram: \d+\/\d+ cells/,
      "the budget line names the device, the layers offloaded and the KV in VRAM",
    );

    const stateDir = repo.stateDir;
    const events = readFileSync(path.join(stateDir, "events.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as SwarmEvent);
    const started = ofType(events, "swarm-started");
    assert.equal(started.length, 1);
    assert.equal(started[0]!.mode, "copy-mode");
    const budgets = ofType(events, "kv-stats");
    assert.ok(budgets.length > 0, "the run reported its KV budget");
    for (const budget of budgets) {
      const placement = budget.stats.placement;
      assert.ok(placement, "the budget says where the model and the cells live");
      assert.equal(placement.backend, "vulkan");
      assert.match(placement.devices.join(", "), /llvmpipe/);
      assert.ok(placement.modelLayers > 0 && placement.gpuLayers === placement.modelLayers, JSON.stringify(placement));
      assert.equal(placement.kvOn, "vram");
    }
    const board = readFileSync(path.join(stateDir, "board.jsonl"), "utf8");
    assert.match(board, /agent-1 ran on lavapipe/);
    assert.match(board, /agent-2 ran on lavapipe/);
  });
});
