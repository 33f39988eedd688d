// Memory across swarms in the real VS Code host: a memory in the workspace repository's memory file (written by
// the real store, as a swarm's end writes it) shows under "Memories" in the Swarms tree, valid at HEAD with its
// provenance; Search Memories finds it by its words; Delete Memory asks first (declined: kept), then removes it
// from the file and the tree.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as vscode from "vscode";
import type { Memory } from "../../../src/protocol/memory";
import { RepositoryMemory } from "../../../src/workspace/repositoryMemory";
import { swarmboard, waitFor } from "./hostApi";

const id = "m-00000000beef";

function workspaceFolder(): string {
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(workspace, "the workbench has no folder open");
  return workspace;
}

function memoryIn(workspace: string): Memory {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: workspace, encoding: "utf8" }).trim();
  return {
    id,
    kind: "FACT",
    text: "mean() throws on an empty list instead of returning NaN",
    refs: [{ path: "src/stats.js", line: 4 }],
    files: [{ path: "src/stats.js", blob: git("rev-parse", "HEAD:src/stats.js") }],
    swarmId: "research-20261201-070112-ab12",
    goal: "learn the stats helpers",
    agent: "agent-3",
    entryId: "e-host",
    postedAt: 1_000,
    commit: git("rev-parse", "HEAD"),
    rememberedAt: 2_000,
  };
}

describe("memories in the Swarms view", function () {
  this.timeout(120_000);

  it("browses, searches and deletes a memory, asking first", async () => {
    const workspace = workspaceFolder();
    const store = await RepositoryMemory.forRepository(workspace);
    await store.add([memoryIn(workspace)]);
    const { hooks } = await swarmboard();
    await vscode.commands.executeCommand("swarmboard.swarms.focus");
    const memoriesRoot = () => hooks.swarmsView.roots().find((n) => n.kind === "memories");
    const ours = () => {
      const root = memoriesRoot();
      return root ? hooks.swarms.children(root).find((n) => n.memoryId === id) : undefined;
    };
    const node = await waitFor("our memory under Memories", ours, 60_000);
    assert.equal(node.label, "mean() throws on an empty list instead of returning NaN");
    assert.equal(node.description, "FACT · valid · src/stats.js");
    assert.equal(node.contextValue, "memory-valid");
    assert.match(node.tooltip ?? "", new RegExp(`^${id}: FACT by agent-3 in swarm research-20261201-070112-ab12`));
    assert.match(memoriesRoot()?.description ?? "", /\d+ valid/);

    const found = await vscode.commands.executeCommand<string[]>("swarmboard.searchMemories", {
      query: "empty list NaN",
    });
    assert.equal(found?.[0], id, "the memory with those words ranks first");
    const picker = await waitFor("the search results", () => hooks.reviewSurfaces.picker());
    assert.ok(picker.items.some((i) => i.description?.startsWith(`${id} · FACT · valid`)));
    picker.hide();

    hooks.reviewSurfaces.confirmations.answerNext(false);
    assert.equal(await vscode.commands.executeCommand("swarmboard.deleteMemory", node), undefined);
    assert.ok(
      (await store.read()).memories.some((m) => m.id === id),
      "declined: the memory is kept",
    );
    hooks.reviewSurfaces.confirmations.answerNext(true);
    assert.equal(await vscode.commands.executeCommand("swarmboard.deleteMemory", node), true);
    assert.ok(hooks.reviewSurfaces.confirmations.questions().includes(`Delete memory ${id}?`));
    assert.ok(!(await store.read()).memories.some((m) => m.id === id), "accepted: gone from the memory file");
    await waitFor("the tree without it", () => ours() === undefined);
  });
});
