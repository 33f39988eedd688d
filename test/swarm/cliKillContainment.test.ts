// Done-when (issue 30): `setsid` and double-forked children of an approved unsandboxed command are gone 5 s after
// a SIGKILL of the CLI (`swarmboard run --approve-asks`), which runs the swarm in its own process. The CLI runs
// through cliNoSandboxChild.ts, where the sandbox is unusable (so the command asks, is approved and runs outside
// it, in its own pid namespace); processes are found by a token in their command line in /proc.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { processesWith, sleep } from "../fixtures/processes/processTable";
import path from "node:path";
import type { TurnScript } from "../../src/protocol/turnScript";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { removeDir } from "../unit/workspace/gitFixture";
import { makeSampleRepo, testRecipe, type SampleRepo } from "./swarmFixtures";

/** Pids whose command line holds `token`. */
describe("an approved unsandboxed command's children die with the CLI (real runtime, forced tokens)", function () {
  this.timeout(10 * 60_000);
  let repo: SampleRepo;
  before(() => (repo = makeSampleRepo()));
  after(() => removeDir(repo.root));

  it("leaves no setsid or double-forked child alive 5 s after a SIGKILL of `swarmboard run`", async () => {
    const child = path.join(__dirname, "cliNoSandboxChild.js");
    assert.ok(existsSync(child), `${child} is missing: run npm run compile:tests first`);
    const token = `${1000 + Math.floor(Math.random() * 8000)}.${process.pid}`;
    const started = path.join(repo.root, "started");
    const command = `setsid sleep ${token} & (sleep ${token} &) ; touch ${started}; sleep ${token}`;
    const script: TurnScript = {
      agents: {
        "agent-1": [
          { tool: "run_command", args: { command, timeoutMs: 600_000 } },
          { tool: "finish", args: { summary: "ran it" } },
        ],
        synthesist: [{ tool: "write_report", args: { title: "Report", body: "done." } }],
      },
    };
    const recipeFile = path.join(repo.root, "e2e.json");
    writeFileSync(recipeFile, JSON.stringify(testRecipe(1)));
    const scriptFile = path.join(repo.root, "script.json");
    writeFileSync(scriptFile, JSON.stringify(script));
    const args = [
      ...["run", "--no-server", "--goal", "Start a background job", "--script", scriptFile, "--approve-asks"],
      ...["--recipe", recipeFile, "--model", sharedModelPath("tiny-random-qwen2-chatml.gguf")],
      ...["--workspace", repo.workspace, "--state-dir", repo.stateDir, "--threads", "1", "--plain"],
    ];
    const cli = spawn(process.execPath, [child, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    cli.stdout.on("data", (c: Buffer) => (out += c.toString()));
    cli.stderr.on("data", (c: Buffer) => (out += c.toString()));
    for (let i = 0; i < 3000 && !existsSync(started) && cli.exitCode === null; i++) await sleep(100);
    assert.ok(existsSync(started), `the command did not start:\n${out}`);
    for (let i = 0; i < 50 && processesWith(token).length < 3; i++) await sleep(100);
    assert.equal(processesWith(token).length, 3, "control: the setsid, double-forked and foreground sleeps run");
    cli.kill("SIGKILL");
    await sleep(5_000);
    const alive = processesWith(token);
    for (const pid of alive) process.kill(pid, "SIGKILL");
    assert.deepEqual(alive, [], `processes of the command outlived the CLI's SIGKILL:\n${out}`);
  });
});
