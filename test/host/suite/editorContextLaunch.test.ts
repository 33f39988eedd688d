// Issue 14, a launch that takes context: with a file open, a selection and an error diagnostic on it, "Launch Swarm
// with Editor Context" asks what goes into the goal; the swarm that starts (scripted, in the file's folder) has the
// goal followed by the file, the selected lines and the error.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as vscode from "vscode";
import type { LaunchResult } from "../../../src/host/launch/launchArgs";
import { noSwarmRunning, swarmboard, waitFor } from "./hostApi";
import { modelPath } from "./reviewSwarmRun";

const recipe = {
  name: "context",
  description: "One worker that finishes at once.",
  roles: [{ name: "worker", count: 1, tools: ["post_finding"], instructions: "Finish." }],
  topology: { kind: "fanout" },
  visibility: "shared",
  budgets: { wallClockMs: 10 * 60_000, tokensPerAgent: 100_000, kvCells: 32_768, steps: 40 },
  taskSources: ["goal"],
  merge: false,
};

describe("launching with the editor's context", function () {
  this.timeout(300_000);

  it("puts the chosen selection and the file's errors into the goal of the swarm it launches", async () => {
    const { hooks } = await swarmboard();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, "the workbench has no folder open");
    await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready", 60_000);
    await noSwarmRunning(hooks);
    const uri = vscode.Uri.joinPath(folder.uri, "src", "stats.js");
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    editor.selection = new vscode.Selection(1, 0, 2, editor.document.lineAt(2).text.length);
    const selected = editor.document.getText(editor.selection);
    const diagnostics = vscode.languages.createDiagnosticCollection("swarmboard-test");
    const recipeFile = path.join(mkdtempSync(path.join(os.tmpdir(), "swarmboard-context-")), "context.json");
    writeFileSync(recipeFile, JSON.stringify(recipe));
    try {
      const error = new vscode.Diagnostic(new vscode.Range(2, 0, 2, 5), "median sorts as strings", 0);
      error.source = "swarmboard-test";
      diagnostics.set(uri, [error]);
      const launching = Promise.resolve(
        vscode.commands.executeCommand<LaunchResult>("swarmboard.launchSwarmWithContext", {
          goal: "Fix what the selection gets wrong",
          recipe: recipeFile,
          modelPath: modelPath(),
          threads: 1,
          script: { agents: {} },
        }),
      );
      const step = await waitFor("the context step", () => {
        const s = hooks.swarms.launchStep();
        return s?.title?.includes("context from the editor") && "items" in s ? s : undefined;
      });
      assert.deepEqual(
        step.items.map((i) => i.label),
        [
          "$(selection) The selection and the file's errors",
          "$(selection) The selection",
          "$(error) The file and its errors",
          "$(file) The file only",
        ],
      );
      step.activeItems = [step.items[0]!];
      await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
      const result = await launching;
      assert.equal(result.outcome, "launched", "reason" in result ? result.reason : "");
      const swarmId = result.outcome === "launched" ? result.swarmId : "";
      const goal = hooks.swarms.store.swarm(swarmId)?.goal ?? "";
      assert.ok(
        goal.startsWith("Fix what the selection gets wrong\n\nContext from the editor: the file src/stats.js."),
      );
      assert.ok(goal.includes(`Selected lines 2-3:\n\`\`\`\n${selected.replace(/\s+$/, "")}\n\`\`\``), goal);
      assert.ok(goal.includes("- line 3: median sorts as strings (swarmboard-test)"), goal);
      assert.equal(hooks.swarms.store.place(swarmId)?.workspace, folder.uri.fsPath);
      await waitFor(
        "the swarm to end",
        () => {
          const v = hooks.swarms.store.swarm(swarmId);
          return v && v.status !== "running" && v.status !== "starting" ? v : undefined;
        },
        240_000,
      );
    } finally {
      diagnostics.dispose();
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    }
  });
});
