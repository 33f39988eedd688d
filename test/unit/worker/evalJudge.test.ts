// The eval's judge: hidden tests copied into a throwaway worktree of the judged branch and run in the sandbox;
// passing tests solve, a failing one is named, a missing branch or a missing sandbox means no verdict (said so),
// never an unsandboxed run; the repository is left as it was.
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { probeBubblewrap } from "../../../src/workspace/bubblewrap";
import { judgeIntegration, type JudgeRequest } from "../../../src/worker/evalJudge";
import { cleanRepo, git, removeDir, tempDir, write } from "../workspace/gitFixture";

const hiddenTest = `const test = require("node:test");
const assert = require("node:assert");
const { double } = require("../src/double.js");
test("doubles", () => assert.strictEqual(double(21), 42));
`;

describe("eval: judging a branch with hidden tests", function () {
  this.timeout(60_000);
  let repo = "";
  let hidden = "";
  let scratch = "";
  let request: JudgeRequest;

  before(() => {
    repo = cleanRepo();
    git(repo, "checkout", "-q", "-b", "fixed");
    write(repo, "src/double.js", "exports.double = (n) => n * 2;\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "double");
    git(repo, "checkout", "-q", "-b", "wrong", "main");
    write(repo, "src/double.js", "exports.double = (n) => n + 2;\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "not double");
    git(repo, "checkout", "-q", "main");
    hidden = tempDir("hidden");
    write(hidden, "double.test.js", hiddenTest);
    scratch = tempDir("judge-scratch");
    const command = "node --test hidden/";
    request = {
      repoPath: repo,
      ref: "fixed",
      hiddenDir: hidden,
      hiddenName: "hidden",
      command,
      scratchParent: scratch,
      timeoutMs: 30_000,
    };
  });
  after(() => [repo, hidden, scratch].forEach(removeDir));

  it("solves a branch whose hidden tests pass, names the failing test of one whose do not", async () => {
    const probe = await probeBubblewrap();
    assert.ok(probe.usable, `bubblewrap is needed for this test: ${probe.usable ? "" : probe.reason}`);
    assert.deepEqual(await judgeIntegration(request), { solved: true });
    const wrong = await judgeIntegration({ ...request, ref: "wrong" });
    assert.equal(wrong.solved, false);
    assert.match(wrong.note ?? "", /^hidden tests failed \(exit 1\): not ok 1 - doubles/);
  });

  it("never solves a run that could not run: a missing runner or no test reported", async () => {
    const probe = await probeBubblewrap();
    assert.ok(probe.usable, `bubblewrap is needed for this test: ${probe.usable ? "" : probe.reason}`);
    const missing = await judgeIntegration({ ...request, command: "swarmboard-no-such-runner hidden/" });
    assert.equal(missing.solved, false);
    assert.match(missing.note ?? "", /^not judged: the hidden tests could not run: exit 127/);
    const none = await judgeIntegration({ ...request, command: "true hidden/" });
    assert.equal(none.solved, false, "a command that ran no test solved the task");
    assert.match(none.note ?? "", /tests could not run: it printed nothing/);
  });

  it("gives no verdict on a missing branch or without a sandbox, and says why", async () => {
    const missing = await judgeIntegration({ ...request, ref: "swarmboard/gone/main" });
    assert.match(missing.note ?? "", /^not judged: swarmboard\/gone\/main could not be checked out/);
    const unsandboxed = await judgeIntegration({
      ...request,
      sandbox: { usable: false, installed: false, reason: "bubblewrap (bwrap) is not installed" },
    });
    assert.deepEqual(unsandboxed, {
      solved: false,
      note: "not judged: no sandbox to run the hidden tests in (bubblewrap (bwrap) is not installed)",
    });
  });

  it("leaves the repository as it was: no worktree, no hidden file, the scratch folder empty", () => {
    assert.deepEqual(readdirSync(scratch), []);
    assert.equal(git(repo, "worktree", "list").trim().split("\n").length, 1);
    assert.equal(git(repo, "status", "--porcelain"), "");
    assert.ok(!existsSync(path.join(repo, "hidden")));
  });
});
