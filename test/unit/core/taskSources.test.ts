import { strict as assert } from "assert";
import type { TaskEvent } from "../../../src/protocol/tasks";
import {
  dedupeTasks,
  stableHash,
  taskFromGoal,
  tasksFromDiagnostics,
  tasksFromEvents,
  tasksFromTestOutput,
  tasksFromTodoComments,
} from "../../../src/core/taskSources";
import { parseTestFailures } from "../../../src/core/testFailures";

const mochaOutput = `
  board
    ✓ adds entries
    1) replays the log

  claims
    2) refuses overlaps


  1 passing (20ms)
  2 failing

  1) board
       replays the log:
     AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
      at Context.<anonymous> (out/test/unit/core/board.test.js:10:5)
      at process.processImmediate (node:internal/timers:483:21)

  2) claims
       refuses overlaps:
     Error: boom
      at refuse (src/core/claims.ts:42:11)
      at Object.<anonymous> (node_modules/mocha/lib/runner.js:1:1)
`;

describe("task sources", () => {
  it("reads mocha's failure list with titles spanning lines and file:line refs", () => {
    const failures = parseTestFailures(mochaOutput);
    assert.deepEqual(
      failures.map((f) => f.title),
      ["board replays the log", "claims refuses overlaps"],
    );
    assert.match(failures[0].detail, /^AssertionError/);
    assert.deepEqual(failures[0].refs, [{ path: "out/test/unit/core/board.test.js", line: 10 }]);
    assert.deepEqual(failures[1].refs, [{ path: "src/core/claims.ts", line: 42 }], "node_modules frames are skipped");
  });

  it("reads TAP, jest, pytest and node:test failures, skipping TODO/SKIP directives", () => {
    const tap = "ok 1 - fine\nnot ok 2 - parses dates\n  ---\n  at: src/date.ts:3:1\nnot ok 3 - later # TODO not yet\n";
    assert.deepEqual(
      parseTestFailures(tap).map((f) => [f.title, f.refs]),
      [["parses dates", [{ path: "src/date.ts", line: 3 }]]],
    );
    const jest =
      "  ● Math › adds\n\n    expect(received).toBe(expected)\n\n      at Object.<anonymous> (src/math.test.ts:5:17)\n";
    assert.deepEqual(
      parseTestFailures(jest).map((f) => f.title),
      ["Math › adds"],
    );
    const pytest = "FAILED tests/test_x.py::test_y - assert 1 == 2\nFAILED tests/test_x.py::test_z\n";
    const py = parseTestFailures(pytest);
    assert.deepEqual(
      py.map((f) => [f.title, f.detail]),
      [
        ["tests/test_x.py::test_y", "assert 1 == 2"],
        ["tests/test_x.py::test_z", ""],
      ],
    );
    const nodeTest = "✖ sums (1.2ms)\n  AssertionError: 1 !== 2\n✖ failing tests:\n\n✖ sums (1.2ms)\n";
    assert.deepEqual(
      parseTestFailures(nodeTest).map((f) => f.title),
      ["sums"],
      "the summary repeats the failure: deduplicated",
    );
    assert.deepEqual(
      parseTestFailures("\x1b[31mnot ok 1 - colored\x1b[0m\n").map((f) => f.title),
      ["colored"],
    );
  });

  it("makes one task per failure, or one for a failing command with no readable failure", () => {
    const tasks = tasksFromTestOutput(mochaOutput, 1);
    assert.equal(tasks.length, 2);
    assert.equal(tasks[0].kind, "test-failure");
    assert.equal(tasks[0].id, `test-${stableHash("test:board replays the log")}`);
    assert.deepEqual(tasksFromTestOutput("all good", 0), []);
    const crash = tasksFromTestOutput("SyntaxError: Unexpected token", 2);
    assert.equal(crash.length, 1);
    assert.match(crash[0].title, /exit code 2/);
  });

  it("finds TODO and FIXME comments, not the words in code or prose", () => {
    const text = [
      "// TODO: handle the empty board",
      "const TODO = 1;",
      "# FIXME(alice) retry on EBUSY",
      "/* TODO */",
      "the todo list is long",
      " * TODO - document this",
      "<!-- TODO: link the guide -->",
      "// TODO: handle the empty board",
    ].join("\n");
    const tasks = tasksFromTodoComments("src/a.ts", text);
    assert.deepEqual(
      tasks.map((t) => t.title),
      [
        "TODO in src/a.ts: handle the empty board",
        "FIXME in src/a.ts: retry on EBUSY",
        "TODO in src/a.ts: (no text)",
        "TODO in src/a.ts: document this",
        "TODO in src/a.ts: link the guide",
        "TODO in src/a.ts: handle the empty board",
      ],
    );
    assert.deepEqual(
      tasks.map((t) => t.refs[0].line),
      [1, 3, 4, 6, 7, 8],
    );
    assert.notEqual(tasks[0].key, tasks[5].key, "the same text twice is two tasks");
    const moved = tasksFromTodoComments("src/a.ts", "\n\n" + text);
    assert.equal(moved[0].key, tasks[0].key, "moving a comment down keeps its task");
  });

  it("keeps diagnostics at or above the chosen severity", () => {
    const diags = [
      {
        path: "src/a.ts",
        line: 3,
        severity: "error" as const,
        message: "Cannot find name 'x'.",
        source: "ts",
        code: 2304,
      },
      { path: "src/a.ts", line: 9, severity: "warning" as const, message: "unused", source: "eslint" },
      { path: "src/a.ts", line: 9, severity: "hint" as const, message: "style" },
    ];
    assert.deepEqual(
      tasksFromDiagnostics(diags).map((t) => t.title),
      ["src/a.ts:3 ts 2304: Cannot find name 'x'."],
    );
    assert.equal(tasksFromDiagnostics(diags, "warning").length, 2);
    assert.equal(tasksFromDiagnostics(diags, "hint").length, 3);
  });

  it("deduplicates a batch by key and turns the goal into a task", () => {
    const goal = taskFromGoal("  Fix   the flaky merge  ");
    assert.equal(goal.title, "Fix the flaky merge");
    const events: TaskEvent[] = [
      { source: "goal", goal: "Fix the flaky merge" },
      { source: "goal", goal: "Fix the  flaky merge" },
      { source: "file-text", path: "a.ts", text: "// TODO: x" },
      { source: "file-text", path: "a.ts", text: "// TODO: x" },
    ];
    assert.deepEqual(
      tasksFromEvents(events).map((t) => t.kind),
      ["goal", "todo"],
    );
    assert.equal(dedupeTasks([goal, goal]).length, 1);
  });
});
