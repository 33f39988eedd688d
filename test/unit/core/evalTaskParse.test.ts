// An eval task's manifest: defaults filled in, a bad one refused with the file and the field named, and its
// trajectories turned into turn scripts with arguments read from the task's files.
import assert from "node:assert/strict";
import { parseEvalTaskText, trajectoryCounts, trajectoryScript } from "../../../src/core/evalTaskParse";
import { formatRecipeProblem } from "../../../src/core/recipeParse";

const minimal = {
  kind: "bug",
  goal: "Fix median",
  trajectories: {
    "1": { "agent-1": [{ tool: "finish", args: { summary: "done" } }] },
    "4": { "agent-1": [{ tool: "finish", args: { summary: "done" } }] },
  },
};

function problems(value: unknown): string {
  const parsed = parseEvalTaskText("suite/t/task.json", typeof value === "string" ? value : JSON.stringify(value));
  assert.equal(parsed.ok, false, "refused");
  return parsed.ok ? "" : parsed.problems.map(formatRecipeProblem).join("\n");
}

describe("eval: a task's manifest", () => {
  it("fills in the repository and hidden folders, the budgets, and lists its agent counts", () => {
    const parsed = parseEvalTaskText("task.json", JSON.stringify(minimal));
    assert.ok(parsed.ok);
    if (!parsed.ok) return;
    assert.equal(parsed.manifest.repo, "repo");
    assert.deepEqual(parsed.manifest.hidden, { dir: "hidden" });
    assert.deepEqual(parsed.manifest.budgets, { tokens: 16_384, steps: 96, wallClockMs: 600_000 });
    assert.deepEqual(trajectoryCounts(parsed.manifest), [1, 4]);
  });

  it("names the file and the field of each problem", () => {
    assert.match(problems({ ...minimal, kind: "feature" }), /^suite\/t\/task\.json: field "kind": /);
    assert.match(problems({ ...minimal, goal: "" }), /field "goal": expected the task's goal/);
    assert.match(
      problems({ ...minimal, budgets: { tokens: -1 } }),
      /field "budgets\.tokens": expected a positive number of tokens, got -1/,
    );
    assert.match(
      problems({ ...minimal, trajectories: { four: minimal.trajectories["1"] } }),
      /field "trajectories\.four": expected an agent count such as 4/,
    );
    assert.match(
      problems({ ...minimal, trajectories: { "2": { worker: [{ tool: "finish", args: {} }] } } }),
      /field "trajectories\.2\.worker": expected an agent id such as agent-1/,
    );
    assert.match(problems({ ...minimal, hidden: { dir: "../elsewhere" } }), /field "hidden\.dir": expected a folder/);
    assert.match(problems({ ...minimal, goals: "x" }), /field "goals": no such field here/);
    assert.match(problems({ kind: "bug", goal: "g" }), /field "trajectories": .*nothing \(the field is missing\)/);
    assert.match(problems("{ not json"), /field "\(file\)": valid JSON/);
  });

  it("reads argsFromFiles into the call's arguments and leaves the other calls as they are", () => {
    const read: string[] = [];
    const script = trajectoryScript(
      {
        "agent-1": [
          { tool: "claim", args: { scope: { paths: ["src/a.js"] }, text: "a" } },
          { tool: "write_file", args: { path: "src/a.js" }, argsFromFiles: { content: "solution/src/a.js" } },
        ],
      },
      (file) => {
        read.push(file);
        return `contents of ${file}`;
      },
    );
    assert.deepEqual(read, ["solution/src/a.js"]);
    assert.deepEqual(script.agents["agent-1"], [
      { tool: "claim", args: { scope: { paths: ["src/a.js"] }, text: "a" } },
      { tool: "write_file", args: { path: "src/a.js", content: "contents of solution/src/a.js" } },
    ]);
  });
});
