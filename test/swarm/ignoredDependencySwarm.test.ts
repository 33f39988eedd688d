// Issue 29 on the real runtime (forced tokens, the tiny Qwen2 ChatML model): an ordinary JavaScript project whose
// .gitignore says `node_modules` (no slash) and whose node_modules holds an installed package its code requires.
// The shipped eval task price-format is that project: with one agent and with two, each agent runs `npm test` in
// its worktree (the dependency reachable through its link), commits (the link never reaches `git add`), merges
// through the verifier (npm test on the integration branch, in a scratch worktree with the link), and the hidden
// tests, which require the package too, judge the integration branch solved. The same task with the other ways a
// .gitignore writes the folder (`/node_modules`, `node_modules/`, `**/node_modules`) is solved too. (Without any
// ignore line the task's own first commit would track node_modules: that row is in the unit matrix,
// dependencyLinkIgnoreForms.test.ts.) On the code before the fix every commit under `node_modules`, `/node_modules`
// or `**/node_modules` failed (`git add ... :(exclude,literal)node_modules` exits 1): nothing merged, nothing solved.
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EvalReport } from "../../src/protocol/evalSuite";
import { loadEvalSuite } from "../../src/worker/eval/evalSuite";
import { runEvalSuite } from "../../src/worker/eval/evalSuiteRun";
import { processRuntime } from "../../src/worker/swarm/processRuntime";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { repoRoot } from "./swarmFixtures";

const suite = path.join(repoRoot(), "examples", "eval");
const task = path.join(suite, "price-format", "repo");
/** The other ignore forms, each a copy of the task under its own name. */
const FORMS = { "root-slash": "/node_modules", "dir-slash": "node_modules/", "double-star": "**/node_modules" };

/** A suite of price-format as shipped plus one copy per ignore form. */
function formSuite(into: string): string {
  cpSync(path.join(suite, "price-format"), path.join(into, "price-format"), { recursive: true });
  for (const [name, line] of Object.entries(FORMS)) {
    const dir = path.join(into, `price-format-${name}`);
    cpSync(path.join(suite, "price-format"), dir, { recursive: true });
    writeFileSync(path.join(dir, "repo", ".gitignore"), `${line}\n`);
  }
  return into;
}

describe("a swarm on a project whose .gitignore says `node_modules`, with a dependency installed (issue 29)", function () {
  this.timeout(10 * 60_000);
  let temp = "";
  let suiteCopy = "";
  let report: EvalReport;

  before(async () => {
    // The fixture is what the issue describes; a task that lost it would prove nothing.
    assert.equal(readFileSync(path.join(task, ".gitignore"), "utf8"), "node_modules\n");
    assert.ok(existsSync(path.join(task, "node_modules", "cents-format", "index.js")), "cents-format is installed");
    assert.match(readFileSync(path.join(task, "src", "price.js"), "utf8"), /require\("cents-format"\)/);
    temp = mkdtempSync(path.join(os.tmpdir(), "ignored-deps-swarm-"));
    suiteCopy = formSuite(mkdtempSync(path.join(os.tmpdir(), "ignored-deps-suite-")));
    report = await runEvalSuite(
      { suite: suiteCopy, tasks: loadEvalSuite(suiteCopy), arms: [1, 2] },
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
    await processRuntime.dropKeptContext();
    for (const dir of [temp, suiteCopy]) if (dir !== "") rmSync(dir, { recursive: true, force: true });
  });

  it("under every ignore form every agent commits and merges, and the hidden tests judge it solved", () => {
    const tasks = ["price-format", ...Object.keys(FORMS).map((f) => `price-format-${f}`)].sort();
    assert.deepEqual(
      report.runs.map((r) => [r.task, r.agents, r.solved, r.outcome, r.note]),
      tasks.flatMap((t) => [
        [t, 1, true, "completed", undefined],
        [t, 2, true, "completed", undefined],
      ]),
    );
    for (const r of report.runs)
      assert.deepEqual([r.merges, r.conflicts, r.refusedMerges], [r.agents, 0, 0], JSON.stringify(r));
  });

  it("leaves no temp repository behind and the task's installed package as it was", () => {
    assert.deepEqual(readdirSync(temp), []);
    assert.deepEqual(readdirSync(path.join(task, "node_modules", "cents-format")).sort(), ["index.js", "package.json"]);
  });
});
