// Done-when for worktrees that can run the project: on a JavaScript project whose `npm test` runs mocha from the
// user's installed node_modules, the test-failures source finds each really failing test, an agent's `npm test`
// runs in its worktree, and the dependencies stay read-only and out of every commit. Then verify before merge:
// a merge that breaks a passing test is refused naming it, and the integration branch does not move.
import assert from "node:assert/strict";
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { tasksFromTestOutput } from "../../../src/core/taskSources";
import { testFailureTasks } from "../../../src/worker/swarm/workspaceTasks";
import { builtinRecipes } from "../../../src/core/recipeCatalog";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import type { CommandApprover } from "../../../src/workspace/approvals";
import { probeBubblewrap, type BubblewrapProbe } from "../../../src/workspace/bubblewrap";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { detectDependencyFolders, type DependencyFolders } from "../../../src/workspace/dependencyFolders";
import { MergeVerifier } from "../../../src/workspace/mergeVerifier";
import { runTestCommandInScratch } from "../../../src/workspace/scratchTestRun";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { callTool } from "./callTool";
import { git, removeDir, snapshotCheckout, tempDir } from "./gitFixture";
import { failingTests, makeMochaProject, mathSource } from "./mochaProject";

const policy = new CommandPolicy({ allow: ["npm test", "touch", "ls", "git status"], ask: [], deny: [] });
const yes: CommandApprover = { requestApproval: async () => true };

describe("workspace: the user's installed dependencies in agent and scratch worktrees", function () {
  this.timeout(180_000);
  let project = "";
  let stateDir = "";
  let repo: SwarmRepository;
  let deps: DependencyFolders;
  let sandbox: BubblewrapProbe;

  before(async () => {
    project = makeMochaProject();
    stateDir = tempDir("deps-state");
    repo = await SwarmRepository.open({ repoPath: project, stateDir, swarm: "deps" });
    await repo.start({ includeUncommitted: false });
    deps = await detectDependencyFolders(repo.topLevel, repo.commonDir);
    sandbox = await probeBubblewrap();
    assert.ok(sandbox.usable, `bubblewrap is needed for these tests: ${sandbox.usable ? "" : sandbox.reason}`);
  });
  after(() => {
    removeDir(project);
    removeDir(stateDir);
  });

  it("finds node_modules in the checkout (installed, not tracked) and nothing else", () => {
    assert.deepEqual(deps.names, ["node_modules"]);
    assert.deepEqual(deps.sources, [path.join(repo.topLevel, "node_modules")]);
    assert.deepEqual(deps.lookedFor, ["node_modules", ".venv", "venv"]);
  });

  it("gives the fix-failing-tests source one task per really failing test", async () => {
    const before = snapshotCheckout(project);
    const recipe = builtinRecipes().get("fix-failing-tests")!;
    const run = (command: string) => runTestCommandInScratch(repo, command, policy, { sandbox, dependencies: deps });
    const { tasks, note } = await testFailureTasks(recipe, run, deps);
    assert.equal(note, undefined);
    assert.deepEqual(
      tasks.map((t) => t.title),
      failingTests.map((t) => `failing test: ${t}`),
    );
    assert.deepEqual(snapshotCheckout(project), before, "the user's checkout is byte-identical");
  });

  it("says on the board why, when the test runner is not installed where the worktree can see it", async () => {
    const recipe = builtinRecipes().get("fix-failing-tests")!;
    const none = { names: [], sources: [], lookedFor: deps.lookedFor };
    const run = (command: string) => runTestCommandInScratch(repo, command, policy, { sandbox, dependencies: none });
    const { tasks, note } = await testFailureTasks(recipe, run, none);
    assert.deepEqual(tasks, []);
    assert.match(note ?? "", /mocha: not found/);
    assert.match(note ?? "", /no installed dependency folder was found in the checkout \(looked for node_modules/);
  });

  it("lets an agent's `npm test` run in its worktree, read-only, and keeps the link out of its commits", async () => {
    const ws = await AgentWorkspace.open(repo, "a1", { policy, sandbox, dependencies: deps });
    const link = path.join(ws.worktree.path, "node_modules");
    assert.ok(lstatSync(link).isSymbolicLink(), "the worktree links the checkout's node_modules");
    const ran = await callTool(ws, "run_command", { command: "npm test" });
    assert.ok(ran.ok && ran.result.ran, JSON.stringify(ran));
    assert.equal(ran.result.sandboxed, true);
    assert.doesNotMatch(ran.result.output, /not found/);
    assert.deepEqual(
      tasksFromTestOutput(ran.result.output, ran.result.exitCode ?? 0).map((t) => t.title),
      failingTests.map((t) => `failing test: ${t}`),
    );
    const installed = readdirSync(path.join(project, "node_modules")).sort();
    // The policy asks about a path into the user's checkout; even approved, the sandbox's mount is read-only.
    const approving = await AgentWorkspace.open(repo, "a1", { policy, sandbox, dependencies: deps, approver: yes });
    const touched = await callTool(approving, "run_command", { command: "touch node_modules/planted" });
    assert.ok(touched.ok && touched.result.ran && touched.result.sandboxed, JSON.stringify(touched));
    assert.notEqual(touched.result.exitCode, 0, "a sandboxed command cannot write into the dependencies");
    assert.deepEqual(readdirSync(path.join(project, "node_modules")).sort(), installed);
    for (const p of ["node_modules/planted.js", "node_modules", "node_modules/mocha/package.json"]) {
      const wrote = await callTool(ws, "write_file", { path: p, content: "x" });
      assert.equal(wrote.ok, false, `write_file ${p} is refused`);
      assert.ok(!wrote.ok && wrote.error.code === "protected-path", JSON.stringify(wrote));
    }
    const shellStatus = await callTool(ws, "run_command", { command: "git status --porcelain --untracked-files=all" });
    assert.ok(
      shellStatus.ok && shellStatus.result.ran && shellStatus.result.exitCode === 0,
      JSON.stringify(shellStatus),
    );
    assert.equal(shellStatus.result.output, "", "inside the sandbox git ignores the link too");
    const status = await callTool(ws, "git_status", {});
    assert.ok(status.ok);
    assert.deepEqual(status.result.files, [], "the link is not a change");
    assert.ok((await callTool(ws, "write_file", { path: "NOTES.md", content: "notes\n" })).ok);
    const committed = await callTool(ws, "commit", { message: "notes" });
    assert.ok(committed.ok && committed.result.committed, JSON.stringify(committed));
    assert.deepEqual(committed.result.files, ["NOTES.md"]);
    assert.equal(git(ws.worktree.path, "show", "--name-only", "--format=", "HEAD").trim(), "NOTES.md");
    assert.ok(lstatSync(link).isSymbolicLink() && existsSync(path.join(project, "node_modules", "mocha")));
  });

  it("refuses a merge that breaks a passing test, naming it, and leaves the integration branch where it was", async () => {
    const verifier = new MergeVerifier(repo, { testCommand: "npm test", policy, dependencies: deps, sandbox });
    const ws = await AgentWorkspace.open(repo, "a2", { policy, sandbox, dependencies: deps, verifier });
    const integrationBefore = git(project, "rev-parse", repo.integrationBranch).trim();
    const broken = mathSource.replace("exports.add = (a, b) => a + b;", "exports.add = (a, b) => a - b;");
    assert.ok((await callTool(ws, "write_file", { path: "src/math.js", content: broken })).ok);
    assert.ok((await callTool(ws, "commit", { message: "break add" })).ok);
    const refused = await callTool(ws, "merge_progress", {});
    assert.ok(refused.ok && refused.result.status === "refused", JSON.stringify(refused));
    assert.match(refused.result.message, /math adds/);
    assert.equal(refused.result.verification?.status, "broke-tests");
    assert.deepEqual(refused.result.verification?.broken, ["math adds"]);
    assert.equal(git(project, "rev-parse", repo.integrationBranch).trim(), integrationBefore, "it did not move");

    const fixed = mathSource.replace("exports.mul = (a, b) => a + b;", "exports.mul = (a, b) => a * b;");
    assert.ok((await callTool(ws, "write_file", { path: "src/math.js", content: fixed })).ok);
    assert.ok((await callTool(ws, "commit", { message: "fix mul, keep add" })).ok);
    const merged = await callTool(ws, "merge_progress", {});
    assert.ok(merged.ok && merged.result.status === "merged", JSON.stringify(merged));
    const v = merged.result.verification;
    assert.equal(v?.status, "passed");
    assert.deepEqual([v?.passed, v?.failed], [2, 1]);
    assert.deepEqual(v?.stillFailing, ["math subtracts"]);
    assert.match(v?.note ?? "", /fixed: math multiplies/);
    assert.equal(readFileSync(path.join(project, "src/math.js"), "utf8"), mathSource, "the user's file is untouched");
  });

  it("refuses a merge, saying why, when the policy does not let the tests run; verify off publishes it unverified", async () => {
    const asking = new CommandPolicy({ allow: [], ask: ["npm test"], deny: [] });
    const options = { testCommand: "npm test", policy: asking, dependencies: deps, sandbox };
    const ws = await AgentWorkspace.open(repo, "a4", {
      policy,
      sandbox,
      dependencies: deps,
      verifier: new MergeVerifier(repo, options),
    });
    assert.ok((await callTool(ws, "write_file", { path: "NOTES-a4.md", content: "a4\n" })).ok);
    assert.ok((await callTool(ws, "commit", { message: "a4 notes" })).ok);
    const refused = await callTool(ws, "merge_progress", {});
    assert.ok(refused.ok && refused.result.status === "refused", JSON.stringify(refused));
    assert.equal(refused.result.verification?.status, "could-not-run");
    assert.match(refused.result.message, /the tests could not run .*not allowed outright by the command policy/);
    const off = new MergeVerifier(repo, { ...options, publishUnverified: true });
    const ws5 = await AgentWorkspace.open(repo, "a5", { policy, sandbox, dependencies: deps, verifier: off });
    assert.ok((await callTool(ws5, "write_file", { path: "NOTES-a5.md", content: "a5\n" })).ok);
    assert.ok((await callTool(ws5, "commit", { message: "a5 notes" })).ok);
    const merged = await callTool(ws5, "merge_progress", {});
    assert.ok(merged.ok && merged.result.status === "merged", JSON.stringify(merged));
    assert.equal(merged.result.verification?.status, "unverified");
    assert.match(
      merged.result.message,
      /unverified: the tests could not run .*not allowed outright by the command policy/,
    );
  });

  it("says 'unverified' on a merge when the recipe names no test command", async () => {
    const ws = await AgentWorkspace.open(repo, "a3", { policy, sandbox, dependencies: deps });
    assert.ok((await callTool(ws, "write_file", { path: "CHANGES.md", content: "a change\n" })).ok);
    assert.ok((await callTool(ws, "commit", { message: "changes" })).ok);
    const merged = await callTool(ws, "merge_progress", {});
    assert.ok(merged.ok && merged.result.status === "merged", JSON.stringify(merged));
    assert.equal(merged.result.verification?.status, "unverified");
    assert.match(merged.result.message, /unverified: the recipe names no test command/);
  });
});
