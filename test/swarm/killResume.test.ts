// Killing the swarm's process with SIGKILL in the middle of a run and resuming it loses no finding and no
// commit: the board log (fsynced before an entry counts as posted) and the git branches survive, and
// `run --resume` continues from a fresh trunk without offering the finished task again.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SwarmBoard } from "../../src/core/swarmBoard";
import { finishedTaskIds } from "../../src/core/finishedTasks";
import type { TurnScript } from "../../src/protocol/turnScript";
import { BoardLogFile } from "../../src/workspace/boardLog";
import { gatherTasks } from "../../src/worker/swarm/workspaceTasks";
import { runNode } from "../processRun";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { git, makeSampleRepo, repoRoot, testRecipe } from "./swarmFixtures";
import { ownServerFolder, serverPidsIn } from "../serverFolder";

const goal = "Fix median for even-length lists";

function boardIds(stateDir: string): string[] {
  return readFileSync(path.join(stateDir, "board.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => (JSON.parse(l) as { id: string }).id);
}

function firstRunScript(goalTask: string, todoTask: string): TurnScript {
  const observations = Array.from({ length: 40 }, (_, i) => ({
    tool: "post_finding",
    args: { kind: "OBSERVED", text: `observation ${i + 1} of the sample project` },
  }));
  return {
    agents: {
      "agent-1": [
        { tool: "claim", args: { scope: { taskId: goalTask }, text: "fix median" } },
        {
          tool: "edit_file",
          args: { path: "src/stats.js", search: "[...values].sort()", replace: "[...values].sort((a, b) => a - b)" },
        },
        { tool: "commit", args: { message: "Sort numerically in median" } },
        { tool: "merge_progress", args: {} },
        ...observations,
      ],
      "agent-2": [
        { tool: "claim", args: { scope: { taskId: todoTask }, text: "variance" } },
        {
          tool: "post_finding",
          args: { kind: "FACT", text: "variance is missing", refs: [{ path: "src/stats.js", line: 15 }] },
        },
        { tool: "finish", args: { summary: "reported the missing variance" } },
      ],
    },
  };
}

describe("a swarm killed with SIGKILL and resumed (CLI, stories260K)", function () {
  const serverFolder = ownServerFolder();
  it("keeps every acknowledged finding and every commit, and does not offer a finished task again", async function () {
    const repo = makeSampleRepo();
    const recipe = testRecipe(2);
    const recipeFile = path.join(repo.root, "e2e.json");
    writeFileSync(recipeFile, JSON.stringify(recipe));
    const [goalTask, ...todos] = await gatherTasks(recipe, goal, repo.workspace);
    const todoTask = todos.find((t) => t.title.includes("variance"))!;
    const scriptFile = path.join(repo.root, "script.json");
    writeFileSync(scriptFile, JSON.stringify(firstRunScript(goalTask!.id, todoTask.id)));
    const cli = path.join(repoRoot(), "dist", "cli", "main.js");
    const common = [
      "--recipe",
      recipeFile,
      "--model",
      sharedModelPath("stories260K.gguf"),
      "--workspace",
      repo.workspace,
      "--state-dir",
      repo.stateDir,
      "--threads",
      "2",
      "--plain",
    ];

    // First run: killed once agent-1's commit is merged and agent-2 has finished, while agent-1 is still posting.
    // In process, so that SIGKILL interrupts the swarm (a swarm on the shared server outlives its client).
    const child = spawn(
      process.execPath,
      [cli, "run", "--no-server", "--goal", goal, "--script", scriptFile, ...common],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    await new Promise<void>((resolve, reject) => {
      child.on("exit", (code) =>
        reject(new Error(`the run ended by itself (code ${code}) before it could be killed:\n${out}`)),
      );
      child.stdout.setEncoding("utf8").on("data", (text: string) => {
        out += text;
        if (/agent-1: ok merge: merged/.test(out) && /agent-2: done/.test(out) && /observation 5 /.test(out)) {
          child.removeAllListeners("exit");
          child.kill("SIGKILL");
          child.on("exit", () => resolve());
        }
      });
    });
    const acknowledged = boardIds(repo.stateDir);
    // Swarm ids are unique per run (recipe name, time, random tail); the run saved its id with its inputs.
    const swarmId = (JSON.parse(readFileSync(path.join(repo.stateDir, "settings.json"), "utf8")) as { swarmId: string })
      .swarmId;
    assert.match(swarmId, /^e2e-\d{8}-\d{6}-[0-9a-f]{4}$/);
    const branchBefore = git(repo.workspace, "rev-parse", `swarmboard/${swarmId}/agent-1`);
    const integrationBefore = git(repo.workspace, "rev-parse", `swarmboard/${swarmId}/main`);
    assert.ok(acknowledged.length >= 8, `entries posted before the kill: ${acknowledged.length}`);

    // Resume, on the shared server (the default; this suite's own): the agents are scripted to finish at once; the
    // state must have survived.
    writeFileSync(path.join(repo.root, "none.json"), JSON.stringify({ agents: {} }));
    // Agents that finish at once: a minute at most on the suite's running server.
    const resumed = await runNode([cli, "run", "--resume", "--script", path.join(repo.root, "none.json"), ...common], {
      timeoutMs: 5 * 60_000,
    });
    assert.equal(resumed.status, 0, `resume failed:\n${resumed.stdout}\n${resumed.stderr}`);
    assert.match(resumed.stdout, new RegExp(`^swarm ${swarmId}: resumed; state dir .* \\(on the server, `, "m"));
    assert.equal(serverPidsIn(serverFolder.dir).length, 1, "the resume started the suite's server");

    const after = boardIds(repo.stateDir);
    for (const id of acknowledged) assert.ok(after.includes(id), `entry ${id} survived the kill and the resume`);
    assert.equal(
      git(repo.workspace, "rev-parse", `swarmboard/${swarmId}/agent-1`),
      branchBefore,
      "agent-1's branch kept its commits",
    );
    assert.equal(
      spawnSync("git", ["merge-base", "--is-ancestor", integrationBefore, `swarmboard/${swarmId}/main`], {
        cwd: repo.workspace,
      }).status,
      0,
      "the integration branch kept the merge",
    );
    assert.match(git(repo.workspace, "log", "--format=%s", `swarmboard/${swarmId}/main`), /Sort numerically in median/);
    assert.match(git(repo.workspace, "fsck", "--no-progress"), /^$/);

    const store = await BoardLogFile.open(path.join(repo.stateDir, "board.jsonl"));
    try {
      const board = new SwarmBoard({ store, visibility: "shared", leaseMs: 60_000 });
      assert.ok(finishedTaskIds(board.board.entries()).has(todoTask.id), "agent-2's task is recorded as finished");
      const open = await gatherTasks(recipe, goal, repo.workspace, board);
      assert.ok(!open.some((t) => t.id === todoTask.id), "the finished task is not offered again");
      assert.ok(
        open.some((t) => t.id === goalTask!.id),
        "the goal, never finished, is still open",
      );
      assert.equal(board.claims.active(Date.now()).length, 0, "no claim is left open after the resumed run");
    } finally {
      await store.close();
    }
  });
});
