// The fallback a user gets when no patched runtime loads (a platform the package has no patched build for, a build
// that fails to load, or after a SIGILL): node-llama-cpp's official binaries in copy mode. Forced here with
// SWARMBOARD_FORCE_STOCK_RUNTIME=1 (what the host sets after a SIGILL), a scripted swarm still runs to the end
// through the CLI, and the budget and the launch say copy mode, and why.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import type { TurnScript } from "../../src/protocol/turnScript";
import { runNode } from "../processRun";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { makeSampleRepo, ofType, repoRoot, testRecipe } from "./swarmFixtures";

function agentScript(n: number): TurnScript["agents"][string] {
  return [
    { tool: "post_finding", args: { kind: "OBSERVED", text: `agent-${n} ran on the official binaries` } },
    { tool: "grep_board", args: {} },
    { tool: "finish", args: { summary: `agent-${n} is done` } },
  ];
}

describe("a scripted swarm on node-llama-cpp's official binaries (forced fallback, CLI, stories260K)", function () {
  this.timeout(30 * 60_000);
  it("runs to the end in copy mode, and the launch and the KV budget say so", async () => {
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
    const run = await runNode(
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
      ],
      // A scripted run, but in copy mode on the stock build: every fork copies the trunk, so give it 10 minutes.
      { env: { ...process.env, SWARMBOARD_FORCE_STOCK_RUNTIME: "1" }, timeoutMs: 10 * 60_000 },
    );
    const output = `${run.stdout}\n${run.stderr}`;
    assert.equal(run.status, 0, `the run failed:\n${output.slice(-4000)}`);
    assert.match(run.stderr, /SWARMBOARD_FORCE_STOCK_RUNTIME=1 asks for node-llama-cpp's official binaries/);
    assert.match(run.stderr, /COPY MODE: every fork copies the trunk/);
    assert.match(run.stdout, /\(copy-mode\), trunk \d+ tokens decoded once/, "the launch line names copy mode");
    assert.match(run.stdout, /KV copy-mode[^:\n]*: \d+\/\d+ cells/, "the budget line names copy mode");

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
    for (const budget of budgets) assert.equal(budget.stats.mode, "copy-mode");
    const board = readFileSync(path.join(stateDir, "board.jsonl"), "utf8");
    assert.match(board, /agent-1 ran on the official binaries/);
    assert.match(board, /agent-2 ran on the official binaries/);
  });
});
