// `swarmboard run --server` and `mcp --server`: how the flags and $SWARMBOARD_SERVER choose where the swarms run,
// and the start request a server run sends, checked as an in-process run checks its inputs (a relative recipe file
// made absolute for the server, the default state dir beside the workspace, what only runs in process refused).
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseCommandLine, UsageError } from "../../../src/cli/args";
import { serverFlag } from "../../../src/cli/flagParsing";
import { parseRun, parseWatch } from "../../../src/cli/runArgs";
import { serverStartParams } from "../../../src/cli/serverRun";
import { cleanRepo, removeDir, tempDir } from "../workspace/gitFixture";

const flags = (...names: string[]) => new Map(names.map((n) => [n, "true"]));

describe("cli: where a run's swarm runs (--server, --no-server, SWARMBOARD_SERVER)", () => {
  it("runs in process by default; --server or SWARMBOARD_SERVER=1 attach; --no-server wins over the variable", () => {
    assert.equal(serverFlag(flags(), {}), false);
    assert.equal(serverFlag(flags("--server"), {}), true);
    assert.equal(serverFlag(flags(), { SWARMBOARD_SERVER: "1" }), true);
    assert.equal(serverFlag(flags(), { SWARMBOARD_SERVER: "0" }), false);
    assert.equal(serverFlag(flags("--no-server"), { SWARMBOARD_SERVER: "1" }), false);
    assert.throws(() => serverFlag(flags("--server", "--no-server"), {}), UsageError);
  });

  it("takes --server on run, watch and mcp", () => {
    const run = parseCommandLine(["run", "--goal", "g", "--server"]);
    assert.equal(run.command === "run" && run.server, true);
    const mcp = parseCommandLine(["mcp", "--server"]);
    assert.equal(mcp.command === "mcp" && mcp.server, true);
    assert.equal(parseWatch(["--server"]).server, true);
    assert.equal(parseRun(["--goal", "g", "--no-server"]).server, false);
  });
});

describe("cli: a server run's start request", () => {
  let repo: string;
  let model: string;
  before(() => {
    repo = cleanRepo();
    model = path.join(tempDir("sb-model-"), "m.gguf");
    writeFileSync(model, "GGUF");
    writeFileSync(path.join(repo, "my-recipe.json"), "{}");
  });
  after(() => removeDir(repo));

  it("sends absolute paths, the default state dir beside the workspace, and the flags given", async () => {
    const opts = parseRun(["--goal", "look", "--model", model, "--recipe", "my-recipe.json", "--agents", "3"]);
    const params = await serverStartParams({ ...opts, server: true }, repo);
    assert.equal(params.recipe, path.join(repo, "my-recipe.json"));
    assert.equal(params.workspace, repo);
    assert.equal(params.modelPath, model);
    assert.equal(params.agents, 3);
    assert.equal(params.threads, 2);
    assert.equal(path.dirname(params.stateDir), path.join(path.dirname(repo), ".swarmboard-state"));
    assert.ok(path.basename(params.stateDir).startsWith(`${path.basename(repo)}-`));
    assert.ok(params.policy.deny.length > 0, "the default policy travels");
    assert.equal(params.agentRules, undefined);
    const named = await serverStartParams(parseRun(["--goal", "g", "--model", model, "--recipe", "research"]), repo);
    assert.equal(named.recipe, "research", "a built-in recipe's name stays a name");
  });

  it("refuses what runs in process only, with what to do", async () => {
    for (const argv of [
      ["--resume", "--state-dir", "/nowhere"],
      ["--goal", "g", "--thinking-tokens", "64"],
    ])
      await assert.rejects(serverStartParams(parseRun([...argv, "--server"]), repo), (e: Error) =>
        /runs in this process only for now: leave --server out/.test(e.message),
      );
    await assert.rejects(serverStartParams(parseWatch(["--server"]), repo), /swarmboard watch runs in this process/);
  });
});
