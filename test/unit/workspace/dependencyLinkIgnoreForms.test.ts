// Issue 29: agents commit whatever the project's ignore files say about its dependency folders. Each row is a real
// repository whose `.gitignore` writes the folders one way (`node_modules`, `/node_modules`, `node_modules/`,
// `**/node_modules`, not at all, mixed), with node_modules, .venv, vendor and target installed (untracked) in the
// checkout and so linked into the agent's worktree as symlinks. Through the product's own paths: the commit tool
// commits the agent's file and never a link, git_status does not list the links, merge_progress merges, and Clean Up
// neither calls the worktree "uncommitted" nor keeps it for its links, which it removes without touching the folders.
import assert from "node:assert/strict";
import { existsSync, lstatSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { detectDependencyFolders } from "../../../src/workspace/dependencyFolders";
import { planCleanUp } from "../../../src/workspace/swarmCleanUpPlan";
import { cleanupSwarm } from "../../../src/workspace/swarmCleanup";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { callTool } from "./callTool";
import { git, removeDir, tempDir, write } from "./gitFixture";

const FOLDERS = ["node_modules", ".venv", "vendor", "target"] as const;
/** vendor and target are not looked for by default: a recipe's `dependencyFolders` names them. */
const EXTRA = ["vendor", "target"];

/** Each row: what `.gitignore` says for every folder (`{}` stands for its name; null: nothing). */
const FORMS: ReadonlyArray<{ readonly title: string; readonly line: (name: string) => string | null }> = [
  { title: "`node_modules`", line: (n) => n },
  { title: "`/node_modules`", line: (n) => `/${n}` },
  { title: "`node_modules/`", line: (n) => `${n}/` },
  { title: "`**/node_modules`", line: (n) => `**/${n}` },
  { title: "no ignore line at all", line: () => null },
  {
    title: "mixed forms (`node_modules`, `/.venv/`, `**/vendor`, target not ignored)",
    line: (n) => ({ node_modules: "node_modules", ".venv": "/.venv/", vendor: "**/vendor" })[n] ?? null,
  },
];

const policy = new CommandPolicy({ allow: [], ask: [], deny: [] });

/** A project committed on main whose dependency folders are installed in the checkout, not tracked. */
function project(line: (name: string) => string | null): string {
  const dir = tempDir("ignore-forms");
  git(dir, "-c", "init.defaultBranch=main", "init", "-q");
  git(dir, "config", "user.name", "Ignore Forms");
  git(dir, "config", "user.email", "forms@example.invalid");
  const ignore = FOLDERS.map(line).filter((l): l is string => l !== null);
  write(dir, ".gitignore", ignore.map((l) => `${l}\n`).join("") + "*.log\n");
  write(dir, "src/index.js", "module.exports = 1;\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "project");
  for (const f of FOLDERS) write(dir, `${f}/dep/index.js`, `// installed in ${f}\n`);
  return dir;
}

describe("workspace: dependency links never reach a commit, whatever the ignore files say (issue 29)", function () {
  this.timeout(120_000);
  const cleanups: string[] = [];
  after(() => cleanups.forEach(removeDir));

  for (const form of FORMS) {
    it(`with ${form.title}: the agent commits, merges, and Clean Up sees no uncommitted change`, async () => {
      const dir = project(form.line);
      const stateDir = tempDir("ignore-forms-state");
      cleanups.push(dir, stateDir);
      const repo = await SwarmRepository.open({ repoPath: dir, stateDir, swarm: "forms" });
      await repo.start({ includeUncommitted: false });
      const deps = await detectDependencyFolders(repo.topLevel, repo.commonDir, EXTRA);
      assert.deepEqual([...deps.names].sort(), [...FOLDERS].sort(), "every folder is found installed");

      const ws = await AgentWorkspace.open(repo, "a1", { policy, dependencies: deps });
      assert.ok((await callTool(ws, "write_file", { path: "src/feature.js", content: "module.exports = 2;\n" })).ok);
      for (const f of FOLDERS) assert.ok(lstatSync(path.join(ws.worktree.path, f)).isSymbolicLink(), `${f} linked`);

      const status = await callTool(ws, "git_status", {});
      assert.ok(status.ok, JSON.stringify(status));
      assert.deepEqual(
        status.result.files.map((f) => f.path),
        ["src/feature.js"],
      );
      const committed = await callTool(ws, "commit", { message: "feature" });
      assert.ok(committed.ok && committed.result.committed, JSON.stringify(committed));
      assert.deepEqual(committed.result.files, ["src/feature.js"]);
      assert.equal(git(ws.worktree.path, "show", "--name-only", "--format=", "HEAD"), "src/feature.js\n");
      assert.equal(git(ws.worktree.path, "ls-files", "--", ...FOLDERS), "", "no link is tracked");

      const merged = await callTool(ws, "merge_progress", {});
      assert.ok(merged.ok && merged.result.status === "merged", JSON.stringify(merged));
      assert.equal(git(dir, "ls-tree", "-r", "--name-only", repo.integrationBranch, "--", ...FOLDERS), "");

      const plan = await planCleanUp(repo);
      const own = plan.worktrees.find((w) => w.path === ws.worktree.path);
      assert.deepEqual(own, { path: ws.worktree.path, branch: own?.branch, uncommitted: false }, "no uncommitted work");
      assert.deepEqual(plan.uncommitted, []);

      const report = await cleanupSwarm(repo);
      assert.ok(report.removedWorktrees.includes(ws.worktree.path), JSON.stringify(report));
      assert.deepEqual(report.keptWorktrees, []);
      assert.ok(!existsSync(ws.worktree.path), "the worktree is gone");
      for (const f of FOLDERS) assert.deepEqual(readdirSync(path.join(dir, f, "dep")), ["index.js"], `${f} untouched`);
    });
  }

  it("Clean Up still keeps a worktree with real work beside its links: a new file, a link of the agent's own", async () => {
    const dir = project((n) => `${n}/`);
    const stateDir = tempDir("ignore-forms-state");
    cleanups.push(dir, stateDir);
    const repo = await SwarmRepository.open({ repoPath: dir, stateDir, swarm: "work" });
    await repo.start({ includeUncommitted: false });
    const deps = await detectDependencyFolders(repo.topLevel, repo.commonDir, EXTRA);
    const ws = await AgentWorkspace.open(repo, "a1", { policy, dependencies: deps });
    await ws.prepare();
    const wt = ws.worktree.path;
    symlinkSync("src", path.join(wt, "src-link"));
    let plan = await planCleanUp(repo);
    assert.deepEqual(plan.uncommitted, [wt], "a link the agent made is work, not one of Swarmboard's");
    rmSync(path.join(wt, "src-link"));
    write(wt, "notes.txt", "unsaved\n");
    plan = await planCleanUp(repo);
    assert.deepEqual(plan.uncommitted, [wt], "an untracked file is work");
    const report = await cleanupSwarm(repo);
    assert.deepEqual(report.keptWorktrees, [{ path: wt, reason: "uncommitted changes or a merge in progress" }]);
    assert.ok(lstatSync(path.join(wt, "node_modules")).isSymbolicLink(), "a kept worktree keeps its links");
  });
});
