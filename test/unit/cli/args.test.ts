// The CLI's command line as data: the history commands, and a run whose unset flags stay unset so that a resume
// can take them from the swarm's saved inputs.
import assert from "node:assert/strict";
import { defaultWatchGoal, parseCommandLine, UsageError } from "../../../src/cli/args";

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

  it("takes --thinking-tokens as a positive number, unset by default", () => {
    const run = parseCommandLine(["run", "--goal", "g", "--thinking-tokens", "256"]);
    assert.equal(run.command === "run" ? run.thinkingTokens : "not a run", 256);
    const plain = parseCommandLine(["run", "--goal", "g"]);
    assert.equal(plain.command === "run" ? plain.thinkingTokens : "not a run", undefined);
    assert.throws(
      () => parseCommandLine(["run", "--goal", "g", "--thinking-tokens", "0"]),
      (e: unknown) => e instanceof UsageError && /--thinking-tokens expects a positive whole number/.test(e.message),
    );
  });

  it("takes --sparse-above-mib as MiB from 0, unset by default, and says what it expects", () => {
    const sparseOf = (argv: string[]) => {
      const run = parseCommandLine(["run", "--goal", "g", ...argv]);
      return run.command === "run" ? run.sparseAboveMiB : "not a run";
    };
    assert.equal(sparseOf(["--sparse-above-mib", "0"]), 0);
    assert.equal(sparseOf(["--sparse-above-mib", "512.5"]), 512.5);
    assert.equal(sparseOf([]), undefined);
    for (const bad of ["-1", "", "big"])
      assert.throws(
        () => sparseOf(["--sparse-above-mib", bad]),
        (e: unknown) =>
          e instanceof UsageError &&
          e.message === `--sparse-above-mib expects a number of MiB from 0 up, got "${bad}".`,
        bad,
      );
  });

  it("takes --ask-user-timeout as whole seconds from 0, unset by default, and says what it expects", () => {
    const timeoutOf = (argv: string[]) => {
      const run = parseCommandLine(["run", "--goal", "g", ...argv]);
      return run.command === "run" ? run.askUserTimeout : "not a run";
    };
    assert.equal(timeoutOf(["--ask-user-timeout", "0"]), 0);
    assert.equal(timeoutOf(["--ask-user-timeout", "90"]), 90);
    assert.equal(timeoutOf([]), undefined);
    for (const bad of ["-1", "1.5", "soon", "86401"])
      assert.throws(
        () => timeoutOf(["--ask-user-timeout", bad]),
        (e: unknown) =>
          e instanceof UsageError &&
          e.message === `--ask-user-timeout expects whole seconds from 0 (nobody answers) to 86400, got "${bad}".`,
        bad,
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

  it("takes --gpu and --kv-cache-type from their lists, for run and mcp, and names the list on a bad value", () => {
    const run = parseCommandLine(["run", "--goal", "g", "--gpu", "cuda", "--kv-cache-type", "q8_0"]);
    assert.ok(run.command === "run");
    assert.deepEqual([run.gpu, run.kvCacheType], ["cuda", "q8_0"]);
    const unset = parseCommandLine(["run", "--goal", "g"]);
    assert.ok(unset.command === "run");
    assert.deepEqual([unset.gpu, unset.kvCacheType], [undefined, undefined], "unset: a resume keeps the saved ones");
    const mcp = parseCommandLine(["mcp", "--gpu", "false", "--kv-cache-type", "f16"]);
    assert.ok(mcp.command === "mcp");
    assert.deepEqual([mcp.gpu, mcp.kvCacheType], ["false", "f16"]);
    assert.throws(
      () => parseCommandLine(["run", "--goal", "g", "--gpu", "nvidia"]),
      /--gpu expects one of auto, cuda, vulkan, metal, false; got "nvidia"/,
    );
    assert.throws(
      () => parseCommandLine(["run", "--goal", "g", "--kv-cache-type", "q8"]),
      /--kv-cache-type expects one of f16, q8_0/,
    );
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

  it("parses watch: the watch recipe and a default goal, its own flags, and on --resume neither", () => {
    const watch = parseCommandLine(["watch", "--triggers", "s.jsonl", "--poll-ms", "5000", "--threads", "1"]);
    assert.equal(watch.command, "run");
    if (watch.command !== "run") return;
    assert.equal(watch.recipe, "watch");
    assert.equal(watch.goal, defaultWatchGoal);
    assert.equal(watch.threads, 1);
    assert.deepEqual(watch.watch, { triggers: "s.jsonl", rules: undefined, pollMs: 5000 });
    const resumed = parseCommandLine(["watch", "--resume", "--state-dir", "st", "--trigger-rules", "r.json"]);
    assert.ok(resumed.command === "run" && resumed.resume && resumed.recipe === undefined);
    assert.equal(resumed.command === "run" ? resumed.watch?.rules : undefined, "r.json");
    assert.throws(() => parseCommandLine(["watch", "--poll-ms", "soon"]), /--poll-ms/);
    assert.throws(
      () => parseCommandLine(["run", "--goal", "g", "--triggers", "s.jsonl"]),
      /unknown option "--triggers"/,
    );
  });
});
