// A shared server that cannot start is said at once, with why: `swarmboard run --server` starts `swarmboard serve`,
// which exits with an error before it listens (here its token is a folder, as a foreign or damaged file would be).
// The client used to poll for the socket for 120 s and then say only that nothing listened; now it notices the exit
// and prints the server's own last log lines and what to do (src/core/server/startedServer.ts). Real CLI processes
// on a server folder of the suite's own.
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { runNode } from "../processRun";
import { ownServerFolder, serverPidsIn } from "../serverFolder";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { makeSampleRepo, repoRoot } from "./swarmFixtures";

const cli = path.join(repoRoot(), "dist", "cli", "main.js");

describe("a shared server that cannot start (run --server)", function () {
  this.timeout(120_000);
  const folder = ownServerFolder();

  it("says at once that the server it started exited, with the server's own words, and runs nothing", async () => {
    assert.ok(existsSync(cli), `${cli} is missing: run npm run build first`);
    const serverDir = path.join(folder.dir, "swarmboard");
    mkdirSync(path.join(serverDir, "token"), { recursive: true, mode: 0o700 });
    const repo = makeSampleRepo();
    const args = ["run", "--server", "--goal", "Fix median", "--workspace", repo.workspace];
    const model = ["--model", sharedModelPath("tiny-random-qwen2-chatml.gguf"), "--state-dir", repo.stateDir];
    // Far below the 120 s a client waits for a server that runs and does not listen yet: only noticing the exit
    // answers within it.
    const out = await runNode([cli, ...args, ...model], { timeoutMs: 60_000 });

    assert.equal(out.status, 1, `exit ${out.status}:\n${out.stdout}\n${out.stderr}`);
    const pid = /started the Swarmboard server \(pid (\d+)\)/.exec(out.stderr)?.[1];
    assert.ok(pid, `the client said it started a server:\n${out.stderr}`);
    assert.match(
      out.stderr,
      new RegExp(
        `The shared Swarmboard server started here \\(pid ${pid}\\) exited with code 1 before it listened on `,
      ),
    );
    assert.match(out.stderr, /The last lines of its log:\n {2}swarmboard: .*token can be read by other users \(or is/);
    assert.ok(out.stderr.includes(path.join(serverDir, "server-")), "it names the server's whole log");
    assert.match(out.stderr, /--no-server/);
    assert.deepEqual(serverPidsIn(folder.dir), [], "no server runs in the folder");
    assert.equal(existsSync(repo.stateDir), false, "no swarm was started");
  });
});
