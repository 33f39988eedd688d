// Done-when: a file in the worktree that is a hard link to a file outside is never written through by
// write_file or edit_file: the worktree's name gets the new bytes, the outside file keeps its own.
import { callTool } from "./callTool";
import assert from "node:assert/strict";
import { chmodSync, linkSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { cleanRepo, removeDir, tempDir } from "./gitFixture";

describe("workspace: writes never go through a hard link", function () {
  this.timeout(60_000);
  let repoDir = "";
  let stateDir = "";
  let outsideDir = "";
  let ws: AgentWorkspace;

  before(async () => {
    repoDir = cleanRepo();
    stateDir = tempDir("state");
    outsideDir = tempDir("outside");
    const repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "hl" });
    await repo.start({ includeUncommitted: false });
    ws = await AgentWorkspace.open(repo, "a1", { policy: new CommandPolicy({ allow: [], ask: [], deny: [] }) });
  });
  after(() => {
    removeDir(repoDir);
    removeDir(stateDir);
    removeDir(outsideDir);
  });

  /** A file outside the worktree and a hard link to it inside; returns both absolute paths. */
  function plantLink(name: string, content: string): { outside: string; inside: string } {
    const outside = path.join(outsideDir, name);
    const inside = path.join(ws.worktree.path, name);
    writeFileSync(outside, content);
    linkSync(outside, inside);
    assert.equal(statSync(inside).nlink, 2, "the fixture must really be a hard link");
    return { outside, inside };
  }

  it("write_file replaces the worktree's name and leaves the outside file's bytes", async () => {
    const { outside, inside } = plantLink("linked-write.txt", "outside bytes\n");
    const out = await callTool(ws, "write_file", { path: "linked-write.txt", content: "agent bytes\n" });
    assert.ok(out.ok, JSON.stringify(out));
    assert.equal(readFileSync(outside, "utf8"), "outside bytes\n");
    assert.equal(readFileSync(inside, "utf8"), "agent bytes\n");
    assert.equal(statSync(outside).nlink, 1);
    assert.notEqual(statSync(inside).ino, statSync(outside).ino);
  });

  it("edit_file replaces the worktree's name and leaves the outside file's bytes", async () => {
    const { outside, inside } = plantLink("linked-edit.ts", "export const x = 1;\n");
    chmodSync(outside, 0o755);
    const out = await callTool(ws, "edit_file", { path: "linked-edit.ts", search: "= 1", replace: "= 2" });
    assert.ok(out.ok, JSON.stringify(out));
    assert.equal(readFileSync(outside, "utf8"), "export const x = 1;\n");
    assert.equal(readFileSync(inside, "utf8"), "export const x = 2;\n");
    assert.equal(statSync(inside).mode & 0o777, 0o755, "the replaced file keeps its mode");
  });

  it("leaves no temporary file behind, also when a write fails", async () => {
    const dirNames = () => readdirSync(ws.worktree.path).filter((n) => n.startsWith(".swarmboard-write-"));
    const bad = await callTool(ws, "edit_file", { path: "linked-edit.ts", search: "no such text", replace: "y" });
    assert.ok(!bad.ok);
    assert.deepEqual(dirNames(), []);
  });
});
