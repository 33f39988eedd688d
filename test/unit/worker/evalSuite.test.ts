// The shipped eval suite loads (six tasks of every kind, each with its repository, hidden tests and forced
// trajectories for 1, 2 and 4 agents, solution files read in), and a broken suite is refused before any run with the
// file and what is wrong named.
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkTrajectories, loadEvalSuite } from "../../../src/worker/eval/evalSuite";
import { repoRoot } from "../../runtime/runtimeTestModels";

const suite = () => path.join(repoRoot(), "examples", "eval");

describe("eval: loading a suite", () => {
  let temp = "";
  beforeEach(() => (temp = mkdtempSync(path.join(os.tmpdir(), "eval-suite-"))));
  afterEach(() => rmSync(temp, { recursive: true, force: true }));

  it("loads the shipped suite: six tasks of every kind, forced trajectories for 1, 2 and 4 agents", () => {
    const tasks = loadEvalSuite(suite());
    assert.ok(tasks.length >= 6, `${tasks.length} tasks`);
    assert.deepEqual([...new Set(tasks.map((t) => t.manifest.kind))].sort(), [
      "bug",
      "missing-function",
      "refactor",
      "todo",
    ]);
    for (const task of tasks) {
      assert.deepEqual([...task.scripts.keys()], [1, 2, 4], task.id);
      assert.equal(Object.keys(task.scripts.get(4)!.agents).length, 4, `${task.id}: four agents in the 4-agent arm`);
      for (const calls of Object.values(task.scripts.get(1)!.agents))
        for (const call of calls.filter((c) => c.tool === "write_file")) {
          const args = call.args as { path: string; content: string };
          const solution = readFileSync(path.join(suite(), task.id, "solution", args.path), "utf8");
          assert.equal(args.content, solution, `${task.id}: ${args.path} comes from its solution file`);
        }
    }
  });

  it("keeps only the tasks asked for, and names the suite's tasks when one is unknown", () => {
    assert.deepEqual(
      loadEvalSuite(suite(), ["stats-bugs", "cart-bugs"]).map((t) => t.id),
      ["cart-bugs", "stats-bugs"],
    );
    assert.throws(() => loadEvalSuite(suite(), ["nope"]), /no task nope in .*; its tasks: cart-bugs, /);
  });

  it("refuses a task whose solution file is missing or whose manifest is bad, naming the file and field", () => {
    cpSync(path.join(suite(), "stats-bugs"), path.join(temp, "t"), { recursive: true });
    rmSync(path.join(temp, "t", "solution", "src", "range.js"));
    assert.throws(
      () => loadEvalSuite(temp),
      /t\/task\.json: field "trajectories\.\d": an argsFromFiles entry names solution\/src\/range\.js, which is not in /,
    );
    const manifest = path.join(temp, "t", "task.json");
    writeFileSync(manifest, JSON.stringify({ ...JSON.parse(readFileSync(manifest, "utf8")), kind: "feature" }));
    assert.throws(() => loadEvalSuite(temp), /t\/task\.json: field "kind": /);
    assert.throws(() => loadEvalSuite(path.join(temp, "t")), /holds no task \(a folder with a task\.json\)/);
  });

  it("refuses a forced eval with an agent count a task has no trajectory for", () => {
    const tasks = loadEvalSuite(suite(), ["stats-bugs"]);
    assert.doesNotThrow(() => checkTrajectories(tasks, [1, 4]));
    assert.throws(
      () => checkTrajectories(tasks, [1, 3]),
      /stats-bugs\/task\.json: field "trajectories": no forced trajectory for 3 agent\(s\) \(it has 1, 2, 4\); add one, or run the model free with --free/,
    );
  });
});
