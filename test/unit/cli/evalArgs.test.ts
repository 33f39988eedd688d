// `swarmboard eval`'s command line: its defaults (the shipped suite, agents 1 and 4, forced), its lists, and a
// bad value refused with what was expected.
import assert from "node:assert/strict";
import { parseCommandLine, UsageError } from "../../../src/cli/args";

describe("cli: the eval command line", () => {
  it("defaults to the shipped suite, 1 and 4 agents, the forced trajectories and two threads", () => {
    assert.deepEqual(parseCommandLine(["eval"]), {
      command: "eval",
      suite: "examples/eval",
      agents: [1, 4],
      tasks: undefined,
      model: undefined,
      threads: 2,
      kvCells: undefined,
      budgetMs: undefined,
      free: false,
      json: undefined,
    });
  });

  it("reads the agent counts, the tasks, --free, --json and the runtime flags", () => {
    const e = parseCommandLine(
      ["eval", "--agents", "1,2", "--tasks", "a, b", "--free", "--json", "o.json", "--gpu", "false"].concat([
        "--suite",
        "s",
        "--model",
        "m.gguf",
        "--kv-cells",
        "4096",
        "--threads",
        "1",
      ]),
    );
    assert.equal(e.command, "eval");
    if (e.command !== "eval") return;
    assert.deepEqual(
      [e.agents, e.tasks, e.free, e.json, e.gpu, e.suite, e.model, e.kvCells, e.threads],
      [[1, 2], ["a", "b"], true, "o.json", "false", "s", "m.gguf", 4096, 1],
    );
  });

  it("refuses a count that is not a positive whole number, a count given twice, and an unknown flag", () => {
    assert.throws(() => parseCommandLine(["eval", "--agents", "1,x"]), /--agents expects a positive whole number/);
    assert.throws(() => parseCommandLine(["eval", "--agents", "4,4"]), /--agents lists a count twice: 4,4/);
    assert.throws(() => parseCommandLine(["eval", "--script", "s.json"]), UsageError);
  });
});
