// The CLI's command line as data: the history commands, and a run whose unset flags stay unset so that a resume
// can take them from the swarm's saved inputs.
import assert from "node:assert/strict";
import { parseCommandLine, UsageError } from "../../../src/cli/args";

describe("cli: the command line", () => {
  it("leaves recipe, workspace and threads unset when not given (a resume takes the saved ones)", () => {
    const run = parseCommandLine(["run", "--resume", "--state-dir", "/s"]);
    assert.equal(run.command, "run");
    if (run.command !== "run") return;
    assert.deepEqual(
      [run.resume, run.stateDir, run.recipe, run.workspace, run.threads, run.goal],
      [true, "/s", undefined, undefined, undefined, ""],
    );
  });

  it("parses list and clean-up", () => {
    assert.deepEqual(parseCommandLine(["list", "--workspace", "/w"]), { command: "list", workspace: "/w" });
    assert.deepEqual(parseCommandLine(["clean-up", "s-1", "--confirm", "abcd1234"]), {
      command: "clean-up",
      swarmId: "s-1",
      workspace: undefined,
      confirm: "abcd1234",
    });
    assert.throws(() => parseCommandLine(["clean-up"]), UsageError);
    assert.throws(() => parseCommandLine(["clean-up", "s-1", "--yes"]), /unknown option "--yes"/);
  });

  it("parses model pull by URI or catalogue name, and model pull --list with its budget", () => {
    assert.deepEqual(parseCommandLine(["model", "pull", "qwen3-4b", "--dir", "/m"]), {
      command: "pull",
      uri: "qwen3-4b",
      dir: "/m",
    });
    assert.deepEqual(parseCommandLine(["model", "pull", "--list"]), { command: "pull-list" });
    assert.deepEqual(parseCommandLine(["model", "pull", "--list", "--kv-cells", "8192"]), {
      command: "pull-list",
      kvCells: 8192,
    });
    assert.throws(() => parseCommandLine(["model", "pull", "--list", "--kv-cells", "0"]), /positive whole number/);
    assert.throws(() => parseCommandLine(["model", "pull"]), /a name from `swarmboard model pull --list`/);
  });
});
