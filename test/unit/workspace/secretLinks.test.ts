// Done-when (issue 30): `read_file` on a hard link to a planted credential file is refused, and so are the
// write and edit paths and search's text: the file tools compare device and inode with the known secret files
// (a temp HOME here, never the real one). A hard link to a file that is no known secret reads as before.
import { callTool } from "./callTool";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { cleanRepo, removeDir, tempDir } from "./gitFixture";

const SECRET = "aws_secret_access_key = AKIA-PLANTED-SECRET-1234\n";

describe("workspace: file tools refuse a hard link to a known secret", function () {
  this.timeout(60_000);
  let repoDir = "";
  let stateDir = "";
  let home = "";
  let outsideDir = "";
  let ws: AgentWorkspace;

  before(async () => {
    repoDir = cleanRepo();
    stateDir = tempDir("state");
    home = tempDir("home");
    outsideDir = tempDir("outside");
    mkdirSync(path.join(home, ".aws"));
    writeFileSync(path.join(home, ".aws", "credentials"), SECRET);
    writeFileSync(path.join(home, ".npmrc"), "//registry.npmjs.org/:_authToken=npm_PLANTED\n");
    writeFileSync(path.join(repoDir, ".env"), "DATABASE_URL=postgres://user:PLANTED@db/x\n");
    const repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "sl" });
    await repo.start({ includeUncommitted: false });
    ws = await AgentWorkspace.open(repo, "a1", {
      policy: new CommandPolicy({ allow: [], ask: [], deny: [] }),
      secretHome: home,
    });
  });
  after(() => {
    for (const dir of [repoDir, stateDir, home, outsideDir]) removeDir(dir);
  });

  function plant(target: string, name: string): string {
    const inside = path.join(ws.worktree.path, name);
    linkSync(target, inside);
    assert.ok(statSync(inside).nlink >= 2, "the fixture must really be a hard link");
    return inside;
  }

  it("read_file is refused with why and what to do, and shows none of the secret", async () => {
    plant(path.join(home, ".aws", "credentials"), "notes.txt");
    const out = await callTool(ws, "read_file", { path: "notes.txt" });
    assert.ok(!out.ok, `the secret was read: ${JSON.stringify(out)}`);
    assert.equal(out.error.code, "protected-path");
    assert.match(out.error.message, /hard link to .*\.aws\/credentials/);
    assert.match(out.error.message, /ask the person/);
    assert.ok(!out.error.message.includes("AKIA"));
  });

  it("edit_file and write_file are refused, and the secret keeps its bytes", async () => {
    const edit = await callTool(ws, "edit_file", { path: "notes.txt", search: "AKIA", replace: "x" });
    assert.ok(!edit.ok && edit.error.code === "protected-path", JSON.stringify(edit));
    const write = await callTool(ws, "write_file", { path: "notes.txt", content: "mine\n" });
    assert.ok(!write.ok && write.error.code === "protected-path", JSON.stringify(write));
    assert.equal(readFileSync(path.join(home, ".aws", "credentials"), "utf8"), SECRET);
  });

  it("search names the link but shows none of its text", async () => {
    const out = await callTool(ws, "search", { pattern: "AKIA", fixedString: true });
    assert.ok(out.ok, JSON.stringify(out));
    assert.ok(!JSON.stringify(out.result).includes("PLANTED-SECRET"), JSON.stringify(out.result));
    assert.match(out.result.matches[0]?.text ?? "", /not shown: .*hard link/);
  });

  it("refuses links to the home's top-level credential files and the user's checkout's .env", async () => {
    plant(path.join(home, ".npmrc"), "npm-config.txt");
    plant(path.join(repoDir, ".env"), "settings.txt");
    for (const name of ["npm-config.txt", "settings.txt"]) {
      const out = await callTool(ws, "read_file", { path: name });
      assert.ok(!out.ok && out.error.code === "protected-path", `${name}: ${JSON.stringify(out)}`);
    }
  });

  it("commit refuses to stage a hard link to a secret, and nothing is committed", async () => {
    const head = () => execFileSync("git", ["rev-parse", "HEAD"], { cwd: ws.worktree.path, encoding: "utf8" });
    const before = head();
    plant(path.join(home, ".aws", "credentials"), "creds.txt");
    const out = await callTool(ws, "commit", { message: "add creds" });
    assert.ok(!out.ok, `the link was committed: ${JSON.stringify(out)}`);
    assert.equal(out.error.code, "protected-path");
    assert.match(out.error.message, /Refusing to commit: .*"creds\.txt" is a hard link to .*\.aws\/credentials/);
    assert.ok(!out.error.message.includes("AKIA"));
    assert.equal(head(), before);
    const staged = execFileSync("git", ["diff", "--cached", "--name-only"], {
      cwd: ws.worktree.path,
      encoding: "utf8",
    });
    assert.equal(staged, "");
    for (const name of ["creds.txt", "notes.txt", "npm-config.txt", "settings.txt"])
      rmSync(path.join(ws.worktree.path, name), { force: true });
  });

  it("reads a hard link to a file that is no known secret", async () => {
    const other = path.join(outsideDir, "shared.txt");
    writeFileSync(other, "public text\n");
    plant(other, "shared.txt");
    const out = await callTool(ws, "read_file", { path: "shared.txt" });
    assert.ok(out.ok, JSON.stringify(out));
    assert.match(out.result.content, /public text/);
    const commit = await callTool(ws, "commit", { message: "add shared" });
    assert.ok(commit.ok && commit.result.committed, JSON.stringify(commit));
  });
});
