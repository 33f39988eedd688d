// Whole swarms on the remote engine: a real llama-server on loopback (built from the llama.cpp source that
// node-llama-cpp ships) computes every token, while the board, the tools and git do their real work in this
// process. A scripted swarm leaves the same board, branches and report as on the local engine; a free-running
// one finishes; a server killed mid-run pauses the agents, and the restarted server lets them finish.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { EngineSettings } from "../../src/protocol/engine";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import type { TurnScript } from "../../src/protocol/turnScript";
import { denyAllApprover } from "../../src/workspace/approvals";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { SwarmSession, type SwarmSummary } from "../../src/worker/swarm/swarmSession";
import { gatherTasks } from "../../src/worker/swarm/workspaceTasks";
import { LlamaServerProcess } from "../../bench/llamaServerProcess";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { git, makeSampleRepo, ofType, testRecipe, type SampleRepo } from "./swarmFixtures";

const modelPath = () => sharedModelPath("tiny-random-qwen2-chatml.gguf");
const goal = "Fix median for even-length lists";
const oldLine = "  const sorted = [...values].sort();";
const newLine = "  const sorted = [...values].sort((a, b) => a - b);";

function script(goalTask: string, todoTask: string): TurnScript {
  return {
    agents: {
      "agent-1": [
        { tool: "claim", args: { scope: { taskId: goalTask }, text: "sort numerically" } },
        { tool: "edit_file", args: { path: "src/stats.js", search: oldLine, replace: newLine } },
        { tool: "commit", args: { message: "Sort median's values numerically" } },
        { tool: "merge_progress", args: {} },
        { tool: "post_finding", args: { kind: "PATCH_SUMMARY", text: "median sorts numbers as numbers" } },
        { tool: "finish", args: { summary: "merged" } },
      ],
      "agent-2": [
        { tool: "claim", args: { scope: { taskId: todoTask }, text: "look at variance" } },
        { tool: "read_file", args: { path: "src/stats.js" } },
        {
          tool: "post_finding",
          args: { kind: "OBSERVED", text: "variance is a TODO", refs: [{ path: "src/stats.js", line: 15 }] },
        },
        { tool: "finish", args: { summary: "variance left open" } },
      ],
      synthesist: [{ tool: "write_report", args: { title: "Report", body: "median merged; variance open." } }],
    },
  };
}

interface Run {
  readonly repo: SampleRepo;
  readonly summary: SwarmSummary;
  readonly events: SwarmEvent[];
}

async function runSwarm(
  swarmId: string,
  options: { engine?: EngineSettings; scripted: boolean; budgetMs?: number },
  onEvent?: (e: SwarmEvent) => void,
): Promise<Run> {
  const repo = makeSampleRepo();
  const recipe = testRecipe(2, options.budgetMs);
  const [goalTask, ...todos] = await gatherTasks(recipe, goal, repo.workspace);
  const todo = todos.find((t) => t.title.includes("variance"));
  assert.ok(goalTask && todo, "the goal and the variance TODO are tasks");
  const events: SwarmEvent[] = [];
  const summary = await new SwarmSession(
    {
      swarmId,
      goal,
      recipe,
      modelPath: modelPath(),
      workspace: repo.workspace,
      stateDir: repo.stateDir,
      threads: 2,
      approver: denyAllApprover,
      policy: defaultPolicyRules,
      seed: 3,
      ...(options.scripted ? { script: script(goalTask.id, todo.id) } : {}),
      ...(options.engine ? { engine: options.engine } : {}),
    },
    (e) => {
      events.push(e);
      onEvent?.(e);
    },
  ).run();
  return { repo, summary, events };
}

/** What a board says, without ids and times: author, kind and text of each entry, in order per author. */
function boardOf(run: Run): string[] {
  return ofType(run.events, "board-entry")
    .map((e) => `${e.entry.author} ${e.entry.kind} ${e.entry.text}`)
    .sort();
}

describe("swarms on a remote engine (llama-server on loopback)", function () {
  let server: LlamaServerProcess;
  let engine: EngineSettings;

  before(async function () {
    server = await LlamaServerProcess.start({
      modelPath: modelPath(),
      slots: 4,
      contextCells: 32_768,
      alias: "tiny-qwen",
    });
    engine = {
      kind: "remote",
      url: server.url,
      model: "tiny-qwen",
      dialect: "auto",
      timeoutMs: 120_000,
      busyRetries: 4,
    };
  });
  after(async () => server?.stop());

  describe("a scripted swarm", () => {
    let local: Run;
    let remote: Run;
    before(async () => {
      // The same swarm id in two repositories: the boards may then be compared word for word.
      local = await runSwarm("scripted", { scripted: true });
      remote = await runSwarm("scripted", { scripted: true, engine });
    });

    it("ends as on the local engine, with the same board and report", () => {
      assert.equal(remote.summary.outcome, "completed", remote.summary.reason);
      assert.deepEqual(
        remote.summary.agents.map((a) => [a.id, a.end.outcome]),
        local.summary.agents.map((a) => [a.id, a.end.outcome]),
      );
      assert.deepEqual(boardOf(remote), boardOf(local));
      assert.equal(readFileSync(remote.summary.reportPath!, "utf8"), readFileSync(local.summary.reportPath!, "utf8"));
    });

    it("merges the same change into its integration branch and leaves the user's checkout alone", () => {
      const file = (run: Run) => git(run.repo.workspace, "show", "swarmboard/scripted/main:src/stats.js");
      assert.equal(file(remote), file(local));
      assert.ok(file(remote).includes(newLine));
      assert.equal(git(remote.repo.workspace, "status", "--porcelain"), "");
      assert.ok(readFileSync(path.join(remote.repo.workspace, "src/stats.js"), "utf8").includes(oldLine));
    });

    it("runs in remote-engine mode and shows the engine's cached prompt tokens in the budget", () => {
      const started = ofType(remote.events, "swarm-started")[0]!;
      assert.equal(started.mode, "remote-engine");
      const last = ofType(remote.events, "kv-stats").at(-1)!.stats;
      assert.equal(last.engine?.cacheReported, true);
      assert.equal(last.engine?.model, "tiny-qwen");
      assert.ok(last.engine!.cachedPromptTokens > last.engine!.computedPromptTokens, JSON.stringify(last.engine));
    });
  });

  it("runs a free-running swarm to its end, every call answered", async () => {
    const run = await runSwarm("free", { scripted: false, engine, budgetMs: 45_000 });
    assert.notEqual(run.summary.outcome, "failed", run.summary.reason);
    const calls = ofType(run.events, "tool-call");
    const results = new Set(ofType(run.events, "tool-result").map((r) => r.callId));
    assert.ok(calls.length >= 2, `the agents made calls (${calls.length})`);
    for (const call of calls) assert.ok(results.has(call.callId), `call ${call.callId} (${call.tool}) answered`);
    assert.ok(ofType(run.events, "kv-stats").at(-1)!.stats.engine!.requests >= calls.length);
  });

  it("pauses the agents when the server dies mid-run and finishes when it is back", async () => {
    let killed: Promise<void> | undefined;
    const run = await runSwarm("outage", { scripted: true, engine }, (e) => {
      if (killed === undefined && e.type === "tool-result" && e.agentId === "agent-1") {
        killed = server.kill().then(async () => {
          await new Promise((resolve) => setTimeout(resolve, 2000));
          await server.start();
        });
      }
    });
    await killed;
    assert.equal(run.summary.outcome, "completed", run.summary.reason);
    const states = ofType(run.events, "engine-state").map((e) => e.engine.state);
    assert.deepEqual(states.slice(0, 2), ["unreachable", "back"], JSON.stringify(states));
    assert.ok(git(run.repo.workspace, "show", "swarmboard/outage/main:src/stats.js").includes(newLine));
    const logged = readFileSync(path.join(run.repo.stateDir, "board.jsonl"), "utf8").trim().split("\n").length;
    assert.equal(logged, ofType(run.events, "board-entry").length, "every board entry reached the log");
  });
});
