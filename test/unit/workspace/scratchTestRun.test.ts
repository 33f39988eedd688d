// The test-failures task source: the recipe's test command runs once in a throwaway worktree of the
// integration branch, inside bubblewrap, and each failing test becomes a task. The user's checkout is never
// where it runs, and a command the policy only asks about is not run at all.
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { tasksFromTestOutput } from "../../../src/core/taskSources";
import { probeBubblewrap } from "../../../src/workspace/bubblewrap";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { runTestCommandInScratch } from "../../../src/workspace/scratchTestRun";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { cleanRepo, git, removeDir, snapshotCheckout, tempDir, write } from "./gitFixture";

const failingTest = `const test = require("node:test");
const assert = require("node:assert");
test("adds numbers", () => assert.strictEqual(1 + 1, 2));
test("median of an even list", () => assert.strictEqual([1, 2].length, 3));
`;

describe("workspace: the test command's failures, run in a scratch worktree", function () {
  this.timeout(120_000);
  let repoDir = "";
  let stateDir = "";
  let repo: SwarmRepository;

  before(async () => {
    repoDir = cleanRepo();
    write(repoDir, "stats.test.js", failingTest);
    write(
      repoDir,
      "package.json",
      JSON.stringify({ name: "scratch", private: true, scripts: { test: "node --test" } }),
    );
    git(repoDir, "add", "-A");
    git(repoDir, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "a failing test");
    stateDir = tempDir("scratch-state-");
    repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "scratch" });
    await repo.start({ includeUncommitted: false });
  });

  after(() => {
    removeDir(repoDir);
    removeDir(stateDir);
  });

  it("runs the command in the sandbox and turns each failing test into a task, touching nothing of the user's", async () => {
    const probe = await probeBubblewrap();
    assert.ok(probe.usable, `bubblewrap is needed for this test: ${probe.usable ? "" : probe.reason}`);
    const before = snapshotCheckout(repoDir);
    const run = await runTestCommandInScratch(
      repo,
      "npm test",
      new CommandPolicy({ allow: ["npm test"], ask: [], deny: [] }),
      { sandbox: probe },
    );
    assert.ok(run.ran, run.ran ? "" : run.reason);
    assert.notEqual(run.exitCode, 0);
    const tasks = tasksFromTestOutput(run.output, run.exitCode);
    assert.deepEqual(
      tasks.map((t) => t.title),
      ["failing test: median of an even list"],
    );
    assert.deepEqual(snapshotCheckout(repoDir), before, "the user's checkout is byte-identical");
    const leftovers = readdirSync(path.dirname(repo.worktreeRoot)).filter((n) => n.startsWith("scratch-"));
    assert.deepEqual(leftovers, [], "the scratch worktree is gone");
    assert.ok(!git(repoDir, "worktree", "list").includes("scratch-"), "git no longer lists it");
  });

  it("does not run a test command the policy only asks about, and says why", async () => {
    // An interpreter run directly (node, python, ...) is always asked about; `npm test` only when listed.
    const run = await runTestCommandInScratch(
      repo,
      "npm test",
      new CommandPolicy({ allow: [], ask: ["npm test"], deny: [] }),
    );
    assert.equal(run.ran, false);
    assert.match(run.ran ? "" : run.reason, /not allowed outright by the command policy/);
    assert.ok(existsSync(repoDir));
  });
});
