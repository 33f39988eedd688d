// `swarmboard run`, `watch` and `mcp` on the shared server (the default): how the flags and $SWARMBOARD_SERVER choose
// where the swarms run, and the request a server run sends, checked as an in-process run checks its inputs (a
// relative recipe file made absolute for the server, the default state dir beside the workspace, a watch's standing
// options and trigger stream, --thinking-tokens, a resume's state dir read back, a watch --resume's standing flags).
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseCommandLine, UsageError } from "../../../src/cli/args";
import { serverFlag } from "../../../src/cli/flagParsing";
import { parseRun, parseWatch } from "../../../src/cli/runArgs";
import { serverRequest, serverStartParams } from "../../../src/cli/serverRunParams";
import { resolveRecipe } from "../../../src/worker/swarm/recipeResolve";
import { recordNewSwarm } from "../../../src/worker/swarmRecords";
import { cleanRepo, removeDir, tempDir } from "../workspace/gitFixture";

const flags = (...names: string[]) => new Map(names.map((n) => [n, "true"]));

describe("cli: where a run's swarm runs (--server, --no-server, SWARMBOARD_SERVER)", () => {
  it("runs on the server by default; --no-server or SWARMBOARD_SERVER=0 run here; a flag wins over the variable", () => {
    assert.equal(serverFlag(flags(), {}), true);
    assert.equal(serverFlag(flags(), { SWARMBOARD_SERVER: "1" }), true);
    assert.equal(serverFlag(flags(), { SWARMBOARD_SERVER: "" }), true);
    assert.equal(serverFlag(flags(), { SWARMBOARD_SERVER: "0" }), false);
    assert.equal(serverFlag(flags(), { SWARMBOARD_SERVER: "false" }), false);
    assert.equal(serverFlag(flags("--no-server"), {}), false);
    assert.equal(serverFlag(flags("--no-server"), { SWARMBOARD_SERVER: "1" }), false);
    assert.equal(serverFlag(flags("--server"), { SWARMBOARD_SERVER: "0" }), true);
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

  it("stands a watch on the server by default, as a run; --no-server or SWARMBOARD_SERVER=0 keep it here", () => {
    assert.equal(parseWatch([], {}).server, true, "watch on the server without a flag or the variable");
    assert.equal(parseWatch(["--resume", "--state-dir", "st"], {}).server, true, "a resumed watch too");
    assert.equal(parseRun(["--goal", "g"], {}).server, true);
    assert.equal(parseWatch(["--no-server"], {}).server, false);
    assert.equal(parseWatch([], { SWARMBOARD_SERVER: "0" }).server, false);
    assert.equal(parseWatch([], { SWARMBOARD_SERVER: "false" }).server, false);
    assert.equal(parseWatch(["--server"], { SWARMBOARD_SERVER: "0" }).server, true);
    assert.equal(parseWatch(["--no-server"], { SWARMBOARD_SERVER: "1" }).server, false);
    assert.throws(() => parseWatch(["--server", "--no-server"], {}), /--server or --no-server, not both/);
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

  it("carries --thinking-tokens and a watch's standing options and trigger stream, none refused", async () => {
    const thinking = await serverStartParams(
      parseRun(["--goal", "g", "--model", model, "--thinking-tokens", "64"]),
      repo,
    );
    assert.equal(thinking.thinkingTokens, 64);
    assert.equal(thinking.standing, undefined);
    const triggers = path.join(repo, "triggers.jsonl");
    writeFileSync(triggers, '{"source":"message","text":"hi"}\n');
    const rules = path.join(repo, "rules.json");
    writeFileSync(rules, JSON.stringify({ holdMs: 500 }));
    const watchArgs = ["--model", model, "--triggers", triggers, "--trigger-rules", rules, "--poll-ms", "900"];
    const watch = await serverStartParams(parseWatch(watchArgs), repo);
    assert.equal(watch.recipe, "watch");
    assert.equal(watch.standing?.pollMs, 900);
    assert.equal(watch.standing?.rules?.holdMs, 500);
    assert.deepEqual(watch.triggerFiles, [triggers]);
  });

  it("carries watch --resume's --poll-ms and --trigger-rules over the saved standing, and nothing without them", async () => {
    const stateDir = path.join(tempDir("sb-standing-"), "state");
    const { recipe } = await resolveRecipe("watch", repo);
    const inputs = {
      goal: "g",
      recipe: "watch",
      modelPath: model,
      workspace: repo,
      threads: 1,
      standing: { pollMs: 900 },
    };
    await recordNewSwarm({ recipe, inputs, stateDir: () => stateDir, launchedBy: "cli" });
    try {
      const plain = await serverRequest(parseWatch(["--resume", "--state-dir", stateDir]), repo);
      assert.equal(plain.kind, "resume");
      assert.equal(plain.kind === "resume" && plain.params.standing, undefined, "the saved standing, unchanged");
      const rules = path.join(repo, "resume-rules.json");
      writeFileSync(rules, JSON.stringify({ holdMs: 700 }));
      const ruled = await serverRequest(
        parseWatch(["--resume", "--state-dir", stateDir, "--trigger-rules", rules]),
        repo,
      );
      const standing = ruled.kind === "resume" ? ruled.params.standing : undefined;
      assert.equal(standing?.pollMs, 900, "the saved poll stays");
      assert.equal(standing?.rules?.holdMs, 700, "the rules given win");
      const polled = await serverRequest(parseWatch(["--resume", "--state-dir", stateDir, "--poll-ms", "300"]), repo);
      assert.deepEqual(polled.kind === "resume" && polled.params.standing, { pollMs: 300 });
    } finally {
      removeDir(path.dirname(stateDir));
    }
  });

  it("resumes from a state dir a run wrote, and refuses one it did not", async () => {
    const empty = tempDir("sb-not-a-swarm-");
    try {
      await assert.rejects(
        serverRequest(parseRun(["--resume", "--state-dir", empty]), repo),
        /Only a state dir that a run wrote can be resumed/,
      );
    } finally {
      removeDir(empty);
    }
  });
});
