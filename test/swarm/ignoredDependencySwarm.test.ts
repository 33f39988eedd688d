// Issue 29 on the real runtime (forced tokens, the tiny Qwen2 ChatML model): an ordinary JavaScript project whose
// .gitignore says `node_modules` (no slash) and whose node_modules holds an installed package its code requires.
// The shipped eval task price-format is that project: with one agent and with two, each agent runs `npm test` in
// its worktree (the dependency reachable through its link), commits (the link never reaches `git add`), merges
// through the verifier (npm test on the integration branch, in a scratch worktree with the link), and the hidden
// tests, which require the package too, judge the integration branch solved. On the code before the fix every
// commit failed (`git add ... :(exclude,literal)node_modules` exits 1), so nothing merged and nothing was solved.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EvalReport } from "../../src/protocol/evalSuite";
import { loadEvalSuite } from "../../src/worker/evalSuite";
import { runEvalSuite } from "../../src/worker/evalSuiteRun";
import { dropKeptContext } from "../../src/worker/keptTrunk";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { repoRoot } from "./swarmFixtures";

const suite = path.join(repoRoot(), "examples", "eval");
const task = path.join(suite, "price-format", "repo");

describe("a swarm on a project whose .gitignore says `node_modules`, with a dependency installed (issue 29)", function () {
  this.timeout(10 * 60_000);
  let temp = "";
  let report: EvalReport;

  before(async () => {
    // The fixture is what the issue describes; a task that lost it would prove nothing.
    assert.equal(readFileSync(path.join(task, ".gitignore"), "utf8"), "node_modules\n");
    assert.ok(existsSync(path.join(task, "node_modules", "cents-format", "index.js")), "cents-format is installed");
    assert.match(readFileSync(path.join(task, "src", "price.js"), "utf8"), /require\("cents-format"\)/);
    temp = mkdtempSync(path.join(os.tmpdir(), "ignored-deps-swarm-"));
    report = await runEvalSuite(
      { suite: "examples/eval", tasks: loadEvalSuite(suite, ["price-format"]), arms: [1, 2] },
      {
        modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
        threads: 1,
        forced: true,
        kvCells: 8192,
        tempRoot: temp,
      },
    );
  });
  after(async () => {
    await dropKeptContext();
    if (temp !== "") rmSync(temp, { recursive: true, force: true });
  });

  it("every agent commits and merges, and the hidden tests (which need the package) judge it solved", () => {
    assert.deepEqual(
      report.runs.map((r) => [r.task, r.agents, r.solved, r.outcome, r.note]),
      [
        ["price-format", 1, true, "completed", undefined],
        ["price-format", 2, true, "completed", undefined],
      ],
    );
    for (const r of report.runs)
      assert.deepEqual([r.merges, r.conflicts, r.refusedMerges], [r.agents, 0, 0], JSON.stringify(r));
  });

  it("leaves no temp repository behind and the task's installed package as it was", () => {
    assert.deepEqual(readdirSync(temp), []);
    assert.deepEqual(readdirSync(path.join(task, "node_modules", "cents-format")).sort(), ["index.js", "package.json"]);
  });
});
