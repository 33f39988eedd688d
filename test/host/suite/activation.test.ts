import assert from "node:assert/strict";
import * as vscode from "vscode";
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
      "swarmboard.launchSwarm",
      "swarmboard.listFindings",
      "swarmboard.openBranchDiff",
      "swarmboard.openPanel",
      "swarmboard.pingWorker",
      "swarmboard.restartWorker",
      "swarmboard.reviewBranches",
      "swarmboard.selectModel",
      "swarmboard.showLane",
      "swarmboard.stopAgent",
      "swarmboard.stopSwarm",
    ]);
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const id of contributed) assert.ok(registered.has(id), `${id} is contributed but not registered`);
  });
});
