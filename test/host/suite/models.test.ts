// Selecting a model: its facts from the worker, the setting saved, and a warning before using a model that
// does not fit in free memory (free memory is set through the test hook; the real check reads os.freemem()).
import assert from "node:assert/strict";
import * as vscode from "vscode";
import type { SelectedModel } from "../../../src/host/models/selectModel";
import { swarmboard } from "./hostApi";
import { modelPath } from "./reviewSwarmRun";

describe("model selection", function () {
  this.timeout(120_000);

  afterEach(async () => {
    const { hooks } = await swarmboard();
    hooks.reviewSurfaces.models.setFreeMemory(undefined);
    await vscode.workspace.getConfiguration("swarmboard").update("modelPath", undefined, vscode.ConfigurationTarget.Global);
  });

  it("shows the model's facts and saves it to swarmboard.modelPath", async () => {
    const { hooks } = await swarmboard();
    const file = modelPath();
    const selected = await vscode.commands.executeCommand<SelectedModel | undefined>("swarmboard.selectModel", { path: file });
    assert.ok(selected, "the model was selected");
    assert.equal(selected.facts.architecture, "llama");
    assert.ok(selected.facts.kvBytesPerCell > 0 && selected.facts.trainContextSize > 0);
    assert.ok(selected.agentsThatFit >= 1, "stories260K fits at least one agent in the default budget");
    assert.equal(selected.memory.fits, true);
    assert.equal(vscode.workspace.getConfiguration("swarmboard").get("modelPath"), file);
    assert.ok(hooks.log.recentLines().some((l) => l.includes("model: context length:")), "the facts are shown and logged");
  });

  it("warns before using a model that does not fit in free memory, and keeps the setting when the user declines", async () => {
    const { hooks } = await swarmboard();
    hooks.reviewSurfaces.models.setFreeMemory(1024);
    hooks.reviewSurfaces.confirmations.answerNext(false);
    const asked = hooks.reviewSurfaces.confirmations.questions().length;
    const selected = await vscode.commands.executeCommand("swarmboard.selectModel", { path: modelPath() });
    assert.equal(selected, undefined);
    assert.match(hooks.reviewSurfaces.confirmations.questions()[asked] ?? "", /does not fit in free memory/);
    assert.equal(vscode.workspace.getConfiguration("swarmboard").get("modelPath"), "");
  });

  it("refuses a file that is not a GGUF model with a clear message", async () => {
    const { hooks } = await swarmboard();
    const selected = await vscode.commands.executeCommand("swarmboard.selectModel", { path: __filename });
    assert.equal(selected, undefined);
    assert.ok(hooks.log.recentLines().some((l) => l.includes("is not a .gguf file")));
  });
});
