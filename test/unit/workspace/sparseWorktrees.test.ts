// Sparse writer worktrees on a real repository of 3,000 files in 30 folders (generated here): a writer's worktree
// holds the root's files and its claimed folder only, widens when it reads or writes outside, lists and searches the
// whole tree without widening, commits and merges (also when the integration branch moved outside its cone, and a
// verified merge whose tests need files the cone lacks), review diffs see the change, and the user's checkout
// (files, index, HEAD, config) is untouched.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { builtinRecipes } from "../../../src/core/recipeCatalog";
import { planSeats } from "../../../src/worker/swarm/seatPlan";
import { estimateDisk } from "../../../src/worker/swarm/swarmDisk";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { probeBubblewrap } from "../../../src/workspace/bubblewrap";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { MergeVerifier } from "../../../src/workspace/mergeVerifier";
import { repositoryProtectedPaths } from "../../../src/workspace/repositoryProtection";
import { SharedReadView } from "../../../src/workspace/sharedReadView";
import { isSparseWorktree } from "../../../src/workspace/sparseMarker";
import { diffSwarmBranch } from "../../../src/workspace/swarmReview";
import { discardSwarm, recoverSwarm } from "../../../src/workspace/swarmCleanup";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { callTool } from "./callTool";
import { git, removeDir, snapshotCheckout, tempDir } from "./gitFixture";

const FOLDERS = 30;
const PER_FOLDER = 100;

/** A test script in TAP: one test needs a file far outside any one agent's claim, one reads a claimed file. */
const TEST_SCRIPT = `#!/bin/sh
echo "1..2"
if test -f pkg/p29/f2999.txt; then echo "ok 1 - far file present"; else echo "not ok 1 - far file present"; fi
if grep -q keep pkg/p03/f0303.txt; then echo "ok 2 - marker kept"; else echo "not ok 2 - marker kept"; fi
`;

function bigRepo(): string {
  const dir = tempDir("sparse-repo");
  for (let f = 0; f < FOLDERS; f++) {
    const folder = path.join(dir, "pkg", `p${String(f).padStart(2, "0")}`);
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < PER_FOLDER; i++) {
      const n = f * PER_FOLDER + i;
      writeFileSync(path.join(folder, `f${String(n).padStart(4, "0")}.txt`), `file ${n} keep\n`);
    }
  }
  writeFileSync(path.join(dir, "package.json"), '{ "name": "big", "scripts": { "test": "sh test.sh" } }\n');
  writeFileSync(path.join(dir, "test.sh"), TEST_SCRIPT);
  git(dir, "-c", "init.defaultBranch=main", "init", "-q");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "3,000 files");
  return dir;
}

/** Files on disk under a worktree, `.git` left out, as worktree-relative paths. */
function filesOnDisk(root: string): string[] {
  const out = execFileSync("find", [".", "-path", "./.git", "-prune", "-o", "-type", "f", "-print"], {
    cwd: root,
    encoding: "utf8",
  });
  return out
    .split("\n")
    .filter(Boolean)
    .map((p) => p.slice(2))
    .sort();
}

const folderOf = (p: string) => p.split("/").slice(0, 2).join("/");

describe("workspace: sparse writer worktrees on a large repository", function () {
  this.timeout(300_000);
  let repoDir = "";
  let stateDir = "";
  let repo: SwarmRepository;
  let view: SharedReadView;
  const policy = new CommandPolicy({ allow: ["npm test", "ls"], ask: [], deny: [] });

  before(async () => {
    repoDir = bigRepo();
  });
  after(() => removeDir(repoDir));
  beforeEach(async () => {
    stateDir = tempDir("sparse-state");
    repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: `sparse-${Date.now()}` });
    await repo.start({ includeUncommitted: false });
    view = new SharedReadView(repo, await repositoryProtectedPaths(repo));
  });
  afterEach(() => removeDir(stateDir));

  it("holds its scope, widens on reads and writes outside, lists and searches everything, commits and merges", async () => {
    const before = snapshotCheckout(repoDir);
    const ws = await AgentWorkspace.onDemand(repo, "agent-1", "writer", view, { policy, sparse: true });
    await ws.prepare({ paths: ["pkg/p03"], globs: [] });
    const root = ws.worktree.path;
    assert.ok(isSparseWorktree(root));
    const start = filesOnDisk(root);
    assert.deepEqual([...new Set(start.map(folderOf))].sort(), ["package.json", "pkg/p03", "test.sh"]);
    assert.equal(start.length, PER_FOLDER + 2, "the claimed folder and the root's files, nothing else");
    assert.equal(git(root, "status", "--porcelain").trim(), "", "files left out are not deletions");
    assert.equal(git(root, "ls-files").split("\n").filter(Boolean).length, FOLDERS * PER_FOLDER + 2, "whole index");

    // Listing and searching see the whole tree and widen nothing.
    const listed = await callTool(ws, "list_dir", { path: "pkg", depth: 1 });
    assert.ok(listed.ok, JSON.stringify(listed));
    assert.equal(listed.result.entries.filter((e) => e.type === "dir").length, FOLDERS);
    const deep = await callTool(ws, "list_dir", { path: "pkg/p21", depth: 1 });
    assert.ok(deep.ok && deep.result.entries.length === PER_FOLDER, JSON.stringify(deep).slice(0, 300));
    assert.equal(deep.result.entries[0]!.size, "file 2100 keep\n".length);
    const found = await callTool(ws, "search", { pattern: "^file 2345 ", paths: [] });
    assert.ok(found.ok && found.result.matches.length === 1, JSON.stringify(found));
    assert.deepEqual(found.result.matches[0], { path: "pkg/p23/f2345.txt", line: 1, text: "file 2345 keep" });
    const inCone = await callTool(ws, "search", { pattern: "^file 30[0-9] ", paths: ["pkg"] });
    assert.ok(inCone.ok && inCone.result.matches.length === 10);
    assert.equal(filesOnDisk(root).length, start.length, "list_dir and search widened nothing");

    // A read outside brings in that file's folder only.
    const read = await callTool(ws, "read_file", { path: "pkg/p07/f0707.txt" });
    assert.ok(read.ok && read.result.content.includes("file 707 keep"), JSON.stringify(read));
    assert.ok(existsSync(path.join(root, "pkg/p07/f0799.txt")));
    assert.ok(!existsSync(path.join(root, "pkg/p08")));

    // Writes outside: a new file in a folder not checked out, and an edit of a file left out.
    assert.ok((await callTool(ws, "write_file", { path: "pkg/p12/new.txt", content: "new\n" })).ok);
    const edited = await callTool(ws, "edit_file", {
      path: "pkg/p15/f1515.txt",
      edits: [{ search: "keep", replace: "changed" }],
    });
    assert.ok(edited.ok, JSON.stringify(edited));
    assert.deepEqual([...new Set(filesOnDisk(root).map(folderOf))].sort(), [
      "package.json",
      "pkg/p03",
      "pkg/p07",
      "pkg/p12",
      "pkg/p15",
      "test.sh",
    ]);
    const status = await callTool(ws, "git_status", {});
    assert.ok(status.ok, JSON.stringify(status));
    assert.deepEqual(
      status.result.files.map((f) => f.path).sort(),
      ["pkg/p12/new.txt", "pkg/p15/f1515.txt"],
      "only the two changes: the files the cone leaves out are not changes",
    );
    const changes = await callTool(ws, "git_diff", {});
    assert.ok(changes.ok && /-file 1515 keep\n\+file 1515 changed/.test(changes.result.diff), JSON.stringify(changes));
    const committed = await callTool(ws, "commit", { message: "two changes outside the claim" });
    assert.ok(committed.ok && committed.result.committed, JSON.stringify(committed));
    assert.deepEqual([...committed.result.files].sort(), ["pkg/p12/new.txt", "pkg/p15/f1515.txt"]);
    // Review sees the agent's whole change.
    const diff = await diffSwarmBranch(repo, ws.worktree.branch);
    assert.match(diff.diff, /pkg\/p12\/new\.txt/);
    assert.match(diff.diff, /pkg\/p15\/f1515\.txt/);
    assert.doesNotMatch(diff.diff, /pkg\/p0[0-24-9]/, "folders left out are not shown as deleted");

    // Another writer (a full worktree) merges a change far outside agent-1's cone first.
    const other = await AgentWorkspace.open(repo, "agent-2", { policy });
    assert.ok((await callTool(other, "write_file", { path: "pkg/p25/f2525.txt", content: "by agent-2\n" })).ok);
    assert.ok((await callTool(other, "commit", { message: "agent-2" })).ok);
    const first = await callTool(other, "merge_progress", {});
    assert.ok(first.ok && first.result.status === "merged", JSON.stringify(first));

    const merged = await callTool(ws, "merge_progress", {});
    assert.ok(merged.ok && merged.result.status === "merged", JSON.stringify(merged));
    assert.ok(!existsSync(path.join(root, "pkg/p25")), "the merge kept the cone: nothing checked out for it");
    assert.equal(git(root, "status", "--porcelain").trim(), "");
    const integration = repo.integrationBranch;
    assert.equal(git(repoDir, "show", `${integration}:pkg/p25/f2525.txt`), "by agent-2\n");
    assert.equal(git(repoDir, "show", `${integration}:pkg/p15/f1515.txt`), "file 1515 changed\n");
    assert.equal(git(repoDir, "ls-tree", "-r", "--name-only", integration).split("\n").filter(Boolean).length, 3003);

    const after = snapshotCheckout(repoDir);
    assert.deepEqual(after, before, "the user's checkout (files, index, HEAD, config) is untouched");
    const sparseCount = filesOnDisk(root).length;
    const fullCount = filesOnDisk(other.worktree.path).length;
    console.log(`      files on disk: sparse writer ${sparseCount}, full writer ${fullCount}`);
    assert.ok(sparseCount * 5 < fullCount);
  });

  it("a verified merge from a sparse worktree runs the tests on the whole merged tree", async function () {
    const sandbox = await probeBubblewrap();
    if (!sandbox.usable) this.skip();
    const verifier = new MergeVerifier(repo, { testCommand: "npm test", policy, sandbox });
    const ws = await AgentWorkspace.onDemand(repo, "agent-3", "writer", view, {
      policy,
      sandbox,
      verifier,
      sparse: true,
    });
    await ws.prepare({ paths: ["pkg/p03/f0303.txt"], globs: [] });
    assert.ok(!existsSync(path.join(ws.worktree.path, "pkg/p29")), "the far file is not in this worktree");
    // A command that names a folder outside the cone finds it (the folder comes in first).
    const listed = await callTool(ws, "run_command", { command: "ls pkg/p09" });
    assert.ok(listed.ok && listed.result.ran && listed.result.exitCode === 0, JSON.stringify(listed));
    assert.equal(listed.result.output.trim().split("\n").length, PER_FOLDER);
    assert.ok(existsSync(path.join(ws.worktree.path, "pkg/p09/f0999.txt")));
    assert.ok(!existsSync(path.join(ws.worktree.path, "pkg/p29")), "and nothing else");
    const broke = await callTool(ws, "edit_file", {
      path: "pkg/p03/f0303.txt",
      edits: [{ search: "keep", replace: "lost" }],
    });
    assert.ok(broke.ok);
    assert.ok((await callTool(ws, "commit", { message: "drop the marker" })).ok);
    const refused = await callTool(ws, "merge_progress", {});
    assert.ok(refused.ok && refused.result.status === "refused", JSON.stringify(refused));
    assert.deepEqual(refused.result.verification?.broken, ["marker kept"], "only the test this change broke");

    assert.ok(
      (await callTool(ws, "edit_file", { path: "pkg/p03/f0303.txt", edits: [{ search: "lost", replace: "keep" }] })).ok,
    );
    assert.ok((await callTool(ws, "commit", { message: "put it back" })).ok);
    const merged = await callTool(ws, "merge_progress", {});
    assert.ok(merged.ok && merged.result.status === "merged", JSON.stringify(merged));
    assert.equal(merged.result.verification?.status, "passed");
    assert.equal(merged.result.verification?.passed, 2, "the far file was there for the tests");
  });

  it("a resumed writer reopens its sparse worktree as it was, and one cut off before its checkout is checked out", async () => {
    const first = await AgentWorkspace.onDemand(repo, "agent-5", "writer", view, { policy, sparse: true });
    await first.prepare({ paths: ["pkg/p11"], globs: [] });
    assert.ok((await callTool(first, "read_file", { path: "pkg/p12/f1212.txt" })).ok);
    const root = first.worktree.path;
    const folders = () =>
      git(root, "-c", "core.sparseCheckout=true", "-c", "core.sparseCheckoutCone=true", "sparse-checkout", "list")
        .trim()
        .split("\n");
    assert.deepEqual(folders(), ["pkg/p11", "pkg/p12"]);

    const resumed = await AgentWorkspace.onDemand(repo, "agent-5", "writer", view, { policy, sparse: true });
    assert.ok(resumed.hasWorktree, "the writer's worktree from the earlier run is reopened at once");
    assert.deepEqual(folders(), ["pkg/p11", "pkg/p12"], "its cone kept");
    assert.ok((await callTool(resumed, "read_file", { path: "pkg/p13/f1313.txt" })).ok, "and it still widens");
    assert.ok(existsSync(path.join(root, "pkg/p13/f1300.txt")));

    // A crash between `worktree add --no-checkout` and the checkout leaves a worktree without an index.
    rmSync(path.join(resumed.worktree.gitDir, "index"));
    const again = await AgentWorkspace.onDemand(repo, "agent-5", "writer", view, { policy, sparse: true });
    assert.ok(again.hasWorktree);
    assert.equal(git(root, "status", "--porcelain").trim(), "", "checked out again: no file shows as deleted");
    assert.equal(git(root, "ls-files").split("\n").filter(Boolean).length, FOLDERS * PER_FOLDER + 2);

    // Recovery and discard treat it like any worktree.
    await recoverSwarm(repo);
    const removed = await discardSwarm(repo);
    assert.ok(
      removed.removedWorktrees.some((w) => w.endsWith("agent-5")),
      JSON.stringify(removed),
    );
    assert.ok(!existsSync(root));
  });

  it("a new worktree is full below the threshold: sparse only when asked", async () => {
    const ws = await AgentWorkspace.onDemand(repo, "agent-4", "writer", view, { policy });
    await ws.prepare({ paths: ["pkg/p03"], globs: [] });
    assert.ok(!isSparseWorktree(ws.worktree.path));
    assert.equal(filesOnDisk(ws.worktree.path).length, FOLDERS * PER_FOLDER + 2);
  });

  it("the launch's estimate: sparse above the recipe's threshold, with what the writers start with and save", async () => {
    const plan = planSeats(builtinRecipes().get("organization")!, 4);
    const full = await estimateDisk(repo, plan);
    assert.equal(full.sparse, false, "3,000 small files (about 12 MiB) are below the 128 MiB default");
    assert.doesNotMatch(full.text, /sparse/);
    const sparse = await estimateDisk(repo, plan, 0);
    assert.equal(sparse.sparse, true);
    assert.equal(sparse.checkoutBytes, (FOLDERS * PER_FOLDER + 2) * 4096, "every small file takes one block");
    assert.match(sparse.text, /sparse worktrees \(one checkout, 11\.7 MiB, is above 0 MiB\)/);
    assert.match(sparse.text, /each of 4 writing agents starts with the root's files \(8\.0 KiB\)/);
    assert.match(sparse.text, /11\.8 MiB at the start with the read view instead of 58\.6 MiB \(saves 46\.9 MiB\)/);
    console.log(`      ${sparse.text}`);
  });
});
