// `swarmboard eval` on the real runtime with forced tokens (the tiny Qwen2 ChatML model: its real BPE vocabulary
// keeps the trunk near 2,200 tokens, where stories260K's byte-level one makes it about 7,000 and each run many times
// slower): two shipped tasks with 1 and 2 agents are solved in both arms, judged by hidden tests the agents never
// saw, with the merges and claims counted from the swarm's events; and the real CLI reports a task whose trajectory
// fixes only half of it as unsolved, with the failing hidden test named, in its table and its JSON.
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { evalReportSchema, type EvalReport } from "../../src/protocol/evalSuite";
import { loadEvalSuite } from "../../src/worker/eval/evalSuite";
import { runEvalSuite } from "../../src/worker/eval/evalSuiteRun";
import { processRuntime } from "../../src/worker/swarm/processRuntime";
import { runNode } from "../processRun";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { repoRoot } from "./swarmFixtures";

const suite = path.join(repoRoot(), "examples", "eval");
const model = () => sharedModelPath("tiny-random-qwen2-chatml.gguf");

/** stats-bugs with a 1-agent trajectory that fixes median, merges, and never touches range. */
function halfFixedTask(into: string): void {
  const dir = path.join(into, "stats-bugs-half-fixed");
  cpSync(path.join(suite, "stats-bugs"), dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(dir, "task.json"), "utf8")) as Record<string, unknown>;
  const trajectory = [
    { tool: "claim", args: { scope: { paths: ["src/median.js"] }, text: "median only" } },
    { tool: "write_file", args: { path: "src/median.js" }, argsFromFiles: { content: "solution/src/median.js" } },
    { tool: "commit", args: { message: "Fix median" } },
    { tool: "merge_progress", args: {} },
    { tool: "finish", args: { summary: "median fixed" } },
  ];
  writeFileSync(
    path.join(dir, "task.json"),
    JSON.stringify({ ...manifest, trajectories: { "1": { "agent-1": trajectory } } }),
  );
}

describe("swarmboard eval on the real runtime (forced trajectories, tiny Qwen2 ChatML model)", function () {
  this.timeout(10 * 60_000);
  let temp = "";
  let report: EvalReport;
  const suiteFilesBefore = readdirSync(suite, { recursive: true }).length;

  before(async () => {
    temp = mkdtempSync(path.join(os.tmpdir(), "eval-swarm-test-"));
    const tasks = loadEvalSuite(suite, ["stats-bugs", "config-todo"]);
    report = await runEvalSuite(
      { suite: "examples/eval", tasks, arms: [1, 2] },
      { modelPath: model(), threads: 1, forced: true, kvCells: 8192, tempRoot: temp },
    );
  });
  after(async () => {
    await processRuntime.dropKeptContext();
    rmSync(temp, { recursive: true, force: true });
  });

  it("solves both tasks with one agent and with two, judged on the integration branch by the hidden tests", () => {
    assert.deepEqual(
      report.runs.map((r) => [r.task, r.agents, r.solved, r.outcome, r.note]),
      [
        ["config-todo", 1, true, "completed", undefined],
        ["config-todo", 2, true, "completed", undefined],
        ["stats-bugs", 1, true, "completed", undefined],
        ["stats-bugs", 2, true, "completed", undefined],
      ],
    );
    assert.deepEqual(
      report.totals.map((t) => [t.agents, t.tasks, t.solved]),
      [
        [1, 2, 2],
        [2, 2, 2],
      ],
    );
  });

  it("counts what the swarm did from its events: one merge per agent, no conflict, no duplicate claim", () => {
    for (const r of report.runs) {
      assert.deepEqual([r.merges, r.conflicts, r.refusedMerges, r.duplicateClaims], [r.agents, 0, 0, 0], r.task);
      assert.ok(r.tokens > 100 && r.kvCells > 1000 && r.wallMs > 0, JSON.stringify(r));
    }
  });

  it("removes every run's temp repository and leaves the suite as it was", () => {
    assert.deepEqual(readdirSync(temp), []);
    assert.equal(readdirSync(suite, { recursive: true }).length, suiteFilesBefore);
  });

  it("reports a trajectory that fixes half the task as unsolved, naming the failing hidden test (the real CLI)", async () => {
    const cli = path.join(repoRoot(), "dist", "cli", "main.js");
    assert.ok(existsSync(cli), `${cli} is missing: run npm run build first`);
    const wrongSuite = path.join(temp, "suite");
    halfFixedTask(wrongSuite);
    const json = path.join(temp, "report.json");
    const out = await runNode(
      [cli, "eval", "--suite", wrongSuite, "--agents", "1", "--model", model(), "--threads", "1"].concat([
        "--kv-cells",
        "8192",
        "--json",
        json,
      ]),
      // One forced trajectory and its hidden tests: a minute at most, half the test's timeout to be sure.
      { env: { ...process.env, TMPDIR: temp }, timeoutMs: 5 * 60_000 },
    );
    assert.equal(out.status, 0, `${out.stdout}\n${out.stderr}`);
    assert.match(out.stdout, /^stats-bugs-half-fixed +bug +1 +NO +[\d.]+s +\d+ +\d+ +1 +0 +0 +0$/m);
    assert.match(out.stdout, /^total +1 tasks +1 +0\/1 /m);
    assert.match(out.stdout, /stats-bugs-half-fixed \(1 agent\): hidden tests failed \(exit 1\): .*range/);
    const written = evalReportSchema.parse(JSON.parse(readFileSync(json, "utf8")));
    assert.deepEqual(
      written.runs.map((r) => [r.task, r.solved, r.merges]),
      [["stats-bugs-half-fixed", false, 1]],
    );
    rmSync(json);
    rmSync(wrongSuite, { recursive: true });
    assert.deepEqual(readdirSync(temp), [], "the CLI's runs left nothing in the temp folder");
  });
});
