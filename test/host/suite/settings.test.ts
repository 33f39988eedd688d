import assert from "node:assert/strict";
import * as vscode from "vscode";
import { swarmboard, waitForLogLine } from "./hostApi";

describe("settings", () => {
  it("names a setting with a wrong value when it changes, and says what to do", async () => {
    const { hooks } = await swarmboard();
    const config = vscode.workspace.getConfiguration("swarmboard");
    await config.update("maxAgents", 0, vscode.ConfigurationTarget.Global);
    try {
      const line = await waitForLogLine(hooks, "the settings problem in the log", (l) =>
        l.includes("settings: swarmboard.maxAgents"),
      );
      assert.match(line, /^\[warn\] settings: swarmboard\.maxAgents: .*Fix it in your settings/);
    } finally {
      await config.update("maxAgents", undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
