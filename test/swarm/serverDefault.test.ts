// The shared server is the CLI's default (issue 26): `swarmboard run` with neither --server nor --no-server starts
// one, detached, in this suite's own server folder; it is still running after the run, `serve --status` lists it,
// and a second run (with --thinking-tokens, which runs there too) attaches to the same pid and loads no model again.
// The tiny ChatML model and forced turns; needs `npm run build`.
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { removeDir } from "../unit/workspace/gitFixture";
import { runNode } from "../processRun";
import { ownServerFolder, serverPidsIn } from "../serverFolder";
import { makeSampleRepo, repoRoot, testRecipe, type SampleRepo } from "./swarmFixtures";

const cli = path.join(repoRoot(), "dist/cli/main.js");
const model = sharedModelPath("tiny-random-qwen2-chatml.gguf");
const finish = { tool: "finish", args: { summary: "-" } };

function runCli(args: string[]) {
  // Neither flag nor variable: the default decides.
  const env = { ...process.env };
  delete env.SWARMBOARD_SERVER;
  // A scripted run of a few steps: minutes at most, even with the server's start (below the test's timeout).
  return runNode([cli, ...args], { env, timeoutMs: 5 * 60_000 });
}

describe("the shared server is the CLI's default", function () {
  this.timeout(15 * 60_000);
  const folder = ownServerFolder();
  let repo: SampleRepo;
  let recipeFile: string;
  let scriptFile: string;

  before(() => {
    assert.ok(existsSync(cli), `${cli} is missing: run \`npm run build\` first`);
    repo = makeSampleRepo();
    recipeFile = path.join(repo.root, "e2e.json");
    writeFileSync(recipeFile, JSON.stringify(testRecipe(1)));
    scriptFile = path.join(repo.root, "script.json");
    writeFileSync(scriptFile, JSON.stringify({ agents: { "agent-1": [finish], synthesist: [finish] } }));
  });
  after(() => removeDir(repo.root));

  const runArgs = (stateDir: string, ...extra: string[]) => [
    ...["run", "--goal", "Look at the stats module", "--model", model, "--workspace", repo.workspace],
    ...["--recipe", recipeFile, "--script", scriptFile, "--threads", "1", "--kv-cells", "16384", "--plain"],
    ...["--state-dir", path.join(repo.root, stateDir), ...extra],
  ];

  it("starts a server for a run without flags, lists it, and a second run attaches to the same pid", async () => {
    assert.deepEqual(serverPidsIn(folder.dir), [], "no server before the first run");
    const first = await runCli(runArgs("state-1"));
    assert.equal(first.status, 0, first.stderr + first.stdout);
    assert.match(first.stderr, /started the Swarmboard server \(pid \d+\)/);
    assert.match(first.stdout, /\(on the server, /);
    const [pid] = serverPidsIn(folder.dir);
    assert.ok(pid !== undefined, "the server outlived the run");
    const status = await runCli(["serve", "--status"]);
    assert.equal(status.status, 0, status.stderr);
    assert.match(status.stdout, new RegExp(`^server pid ${pid}, `, "m"));

    const second = await runCli(runArgs("state-2", "--thinking-tokens", "48"));
    assert.equal(second.status, 0, second.stderr + second.stdout);
    assert.doesNotMatch(second.stderr, /started the Swarmboard server/, "the second run attached");
    assert.match(second.stdout, /\(on the server, /);
    assert.deepEqual(serverPidsIn(folder.dir), [pid], "the same server, the same pid");
    const after = await runCli(["serve", "--status"]);
    assert.match(after.stdout, new RegExp(`^server pid ${pid}, `, "m"));
    assert.match(after.stdout, /models loaded: 1;/, "two runs, one model load");
  });
});
