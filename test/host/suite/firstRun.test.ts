// Issue 14, first run in the real host: with no model set, the Get Started view's welcome content offers to pick
// or download one and to launch, the Swarms tree says plainly that no model is set, and the walkthrough opens
// (model -> launch -> watch -> review). Photographed so a person can look at them.
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { requestScreenshot } from "./automationMarkers";
import { swarmboard, waitFor } from "./hostApi";
import { modelPath } from "./reviewSwarmRun";

interface Manifest {
  contributes: {
    views: Record<string, Array<{ id: string; when?: string }>>;
    viewsWelcome: Array<{ view: string; contents: string; when?: string }>;
    walkthroughs: Array<{
      id: string;
      steps: Array<{ id: string; media: { markdown: string }; completionEvents: string[] }>;
    }>;
  };
  capabilities: { untrustedWorkspaces: { supported: boolean | "limited"; description: string } };
}

describe("first run", function () {
  this.timeout(120_000);

  it("shows welcome content and a plain 'no model' line when no model is set", async () => {
    const { extension, hooks } = await swarmboard();
    const config = vscode.workspace.getConfiguration("swarmboard");
    await config.update("modelPath", undefined, vscode.ConfigurationTarget.Global);
    const manifest = extension.packageJSON as Manifest;
    const welcomeView = manifest.contributes.views.swarmboard.find((v) => v.id === "swarmboard.welcome");
    assert.equal(welcomeView?.when, "!swarmboard.modelSet");
    const welcome = manifest.contributes.viewsWelcome.find((w) => w.view === "swarmboard.welcome")?.contents ?? "";
    for (const link of [
      "command:swarmboard.selectModel",
      "command:swarmboard.pullModel",
      "command:swarmboard.launchSwarm",
    ])
      assert.ok(welcome.includes(link), `the welcome content links ${link}`);
    // Where chat is missing (code-server has no Chat view) the view says so and points at the palette and the CLI.
    const noChat = manifest.contributes.viewsWelcome.find(
      (w) => w.view === "swarmboard.welcome" && /!\s*chatIsEnabled/.test(w.when ?? ""),
    );
    assert.match(noChat?.contents ?? "", /^Chat is not available in this editor .*Command Palette.*swarmboard run/s);

    const model = await waitFor("the no-model line", () =>
      hooks.swarmsView.roots().find((n) => n.kind === "model" && n.label === "Model: none set"),
    );
    assert.equal(model.command?.command, "swarmboard.selectModel");
    assert.equal(model.contextValue, "model-none");
    await vscode.commands.executeCommand("swarmboard.swarms.focus");
    await vscode.commands.executeCommand("swarmboard.welcome.focus");
    if (vscode.env.uiKind === vscode.UIKind.Web) {
      await new Promise((r) => setTimeout(r, 1000));
      await requestScreenshot("welcome-no-model");
    }

    await config.update("modelPath", modelPath(), vscode.ConfigurationTarget.Global);
    try {
      const saved = await waitFor("the saved model's line", () =>
        hooks.swarmsView.roots().find((n) => n.kind === "model" && n.label === "Model: stories260K"),
      );
      assert.equal(saved.contextValue, "model-saved");
    } finally {
      await config.update("modelPath", undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("opens the walkthrough: model, launch, watch, review", async () => {
    const { extension } = await swarmboard();
    const manifest = extension.packageJSON as Manifest;
    const walkthrough = manifest.contributes.walkthroughs.find((w) => w.id === "swarmboard.gettingStarted");
    assert.deepEqual(
      walkthrough?.steps.map((s) => s.id),
      ["model", "launch", "watch", "review"],
    );
    // Issue 29: "Pick a model" ticks once a model is set (however it was set); "Launch a swarm" only once a swarm
    // really started (src/host/launch/walkthroughContext.ts), not when the launch command ran and was cancelled.
    assert.deepEqual(
      walkthrough?.steps.map((s) => s.completionEvents),
      [
        ["onSettingChanged:swarmboard.modelPath", "onContext:swarmboard.modelSet"],
        ["onContext:swarmboard.swarmStarted"],
        ["onCommand:swarmboard.openPanel"],
        ["onCommand:swarmboard.reviewBranches"],
      ],
    );
    for (const step of walkthrough?.steps ?? []) {
      const uri = vscode.Uri.joinPath(extension.extensionUri, step.media.markdown);
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      assert.match(text, /^# /, `${step.media.markdown} is a page with a heading`);
    }
    await vscode.commands.executeCommand(
      "workbench.action.openWalkthrough",
      "swarmboard.swarmboard#swarmboard.gettingStarted",
      false,
    );
    if (vscode.env.uiKind === vscode.UIKind.Web) {
      await new Promise((r) => setTimeout(r, 1500));
      await requestScreenshot("walkthrough");
    }
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });

  it("says in Restricted Mode why the views are empty and how to trust the folder (issue 29)", async () => {
    const { extension } = await swarmboard();
    const manifest = extension.packageJSON as Manifest;
    // Limited, not unsupported: an unsupported extension is simply absent there, with no word of why.
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, "limited");
    const welcomes = manifest.contributes.viewsWelcome;
    const restricted = welcomes.filter((w) => w.when === "!isWorkspaceTrusted");
    assert.deepEqual(restricted.map((w) => w.view).sort(), ["swarmboard.swarms", "swarmboard.welcome"]);
    for (const w of restricted) {
      assert.match(w.contents, /Restricted Mode/);
      assert.ok(w.contents.includes("(command:workbench.trust.manage)"), `${w.view} links Manage Workspace Trust`);
    }
    for (const w of welcomes.filter((x) => !restricted.includes(x)))
      assert.match(w.when ?? "", /^isWorkspaceTrusted\b/, `${w.view}'s other welcome shows only when trusted`);
    assert.ok(vscode.workspace.isTrusted, "this window is trusted: the extension started in full");
  });
});
