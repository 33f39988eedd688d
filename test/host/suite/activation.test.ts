import assert from "node:assert/strict";
import * as vscode from "vscode";
import { hostCommands } from "../../../src/host/commandTable";
import { swarmboard } from "./hostApi";

describe("activation", () => {
  it("activates in the extension host and hands the tests their hooks", async () => {
    const { extension, hooks } = await swarmboard();
    assert.equal(extension.isActive, true);
    assert.ok(
      hooks.log.recentLines().some((l) => l.includes("activating")),
      "the activation was not logged",
    );
  });

  it("registers every command the manifest contributes", async () => {
    const { extension } = await swarmboard();
    const contributed = (
      extension.packageJSON as { contributes: { commands: { command: string }[] } }
    ).contributes.commands.map((c) => c.command);
    assert.deepEqual(contributed.sort(), [
      "swarmboard.addTask",
      "swarmboard.answerQuestion",
      "swarmboard.buildRuntime",
      "swarmboard.cleanUpSwarm",
      "swarmboard.deleteMemory",
      "swarmboard.discardBranchInDiff",
      "swarmboard.launchSwarm",
      "swarmboard.launchSwarmWithContext",
      "swarmboard.listFindings",
      "swarmboard.mergeBranchInDiff",
      "swarmboard.messageAgent",
      "swarmboard.messageSwarm",
      "swarmboard.openBranchDiff",
      "swarmboard.openPanel",
      "swarmboard.pauseAgent",
      "swarmboard.pingWorker",
      "swarmboard.pullModel",
      "swarmboard.restartWorker",
      "swarmboard.resumeAgent",
      "swarmboard.resumeSwarm",
      "swarmboard.reviewBranches",
      "swarmboard.searchMemories",
      "swarmboard.selectModel",
      "swarmboard.setEngineApiKey",
      "swarmboard.showLane",
      "swarmboard.startWatching",
      "swarmboard.stopAgent",
      "swarmboard.stopSwarm",
      "swarmboard.stopWatching",
    ]);
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const id of contributed) assert.ok(registered.has(id), `${id} is contributed but not registered`);
  });

  it("contributes every registered command except the table's internal ones, and the table matches the manifest", async () => {
    const { extension } = await swarmboard();
    const manifest = extension.packageJSON as {
      contributes: { commands: { command: string }[]; views: Record<string, Array<{ id: string }>> };
    };
    const contributed = new Set(manifest.contributes.commands.map((c) => c.command));
    const viewIds = Object.values(manifest.contributes.views).flatMap((views) => views.map((v) => v.id));
    const table = Object.values(hostCommands) as ReadonlyArray<{ id: string; internal?: true }>;
    const internal = new Set(table.filter((c) => c.internal).map((c) => c.id));
    // VS Code registers commands for each view under its id (`swarmboard.swarms.focus`): only ours count.
    const registered = (await vscode.commands.getCommands(true)).filter(
      (id) => id.startsWith("swarmboard.") && !viewIds.some((view) => id.startsWith(`${view}.`)),
    );
    for (const id of registered)
      assert.ok(contributed.has(id) || internal.has(id), `${id} is registered but neither contributed nor internal`);
    const publicIds = table.filter((c) => !c.internal).map((c) => c.id);
    assert.deepEqual([...contributed].sort(), publicIds.sort(), "package.json and the command table disagree");
    for (const id of internal) assert.ok(!contributed.has(id), `${id} is internal but contributed`);
  });
});
