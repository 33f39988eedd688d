// The eval's judge: hidden tests copied into a throwaway worktree of the judged branch and run in the sandbox;
// passing tests solve, a failing one is named, a missing branch or a missing sandbox means no verdict (said so),
// never an unsandboxed run; the repository is left as it was. A repository with an installed dependency that its
// .gitignore hides (`node_modules`, no slash) is judged with that dependency reachable, and left as it was.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { probeBubblewrap } from "../../../src/workspace/bubblewrap";
import { judgeIntegration, type JudgeRequest } from "../../../src/worker/eval/evalJudge";
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

describe("eval: judging a repository whose tests need an installed, ignored dependency (issue 29)", function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("runs the hidden tests with the repository's node_modules reachable, read-only, and leaves it as it was", async () => {
    const repo = tempDir("judge-deps");
    const hidden = tempDir("judge-deps-hidden");
    const scratch = tempDir("judge-deps-scratch");
    dirs.push(repo, hidden, scratch);
    git(repo, "-c", "init.defaultBranch=main", "init", "-q");
    write(repo, ".gitignore", "node_modules\n");
    write(repo, "src/price.js", 'const { cents } = require("cents");\nexports.price = (n) => `$${cents(n)}`;\n');
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "price");
    const installed = "exports.cents = (n) => (n / 100).toFixed(2);\n";
    write(repo, "node_modules/cents/index.js", installed);
    write(repo, "node_modules/cents/package.json", '{ "name": "cents", "version": "1.0.0", "main": "index.js" }\n');
    write(
      hidden,
      "price.test.js",
      'const test = require("node:test");\nconst assert = require("node:assert");\n' +
        'const { price } = require("../src/price.js");\nconst { cents } = require("cents");\n' +
        'test("prices", () => assert.strictEqual(price(1234), `$${cents(1234)}`));\n' +
        'test("cannot write the dependency", () => assert.throws(() => require("node:fs").writeFileSync("node_modules/cents/x.js", "")));\n',
    );
    const probe = await probeBubblewrap();
    assert.ok(probe.usable, `bubblewrap is needed for this test: ${probe.usable ? "" : probe.reason}`);
    const verdict = await judgeIntegration({
      repoPath: repo,
      ref: "main",
      hiddenDir: hidden,
      hiddenName: "hidden",
      command: "node --test hidden/",
      scratchParent: scratch,
      timeoutMs: 30_000,
    });
    assert.deepEqual(verdict, { solved: true });
    assert.deepEqual(readdirSync(scratch), []);
    assert.deepEqual(readdirSync(path.join(repo, "node_modules", "cents")).sort(), ["index.js", "package.json"]);
    assert.equal(readFileSync(path.join(repo, "node_modules", "cents", "index.js"), "utf8"), installed);
    assert.equal(git(repo, "status", "--porcelain"), "");
  });
});
