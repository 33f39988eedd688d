// Issue 14, the end of a swarm in the real host: a short scripted swarm (one worker and a synthesist that writes
// the report) ends, and a notification says how it ended with Review Branches and Open Report; the tree counts
// its agents as workers + synthesist.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import { requestScreenshot } from "./automationMarkers";
import { noSwarmRunning, swarmboard, waitFor } from "./hostApi";
import { modelPath, sampleRepo, shortRecipe as recipe } from "./reviewSwarmRun";

describe("end of a swarm", function () {
  this.timeout(420_000);

  it("says how the swarm ended, with Review Branches and Open Report", async () => {
    const { hooks } = await swarmboard();
    const { root, repo } = sampleRepo("end");
    const stateDir = path.join(root, "state");
    mkdirSync(stateDir);
    const recipeFile = path.join(root, "short-recipe.json");
    writeFileSync(recipeFile, JSON.stringify(recipe));
    await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready", 60_000);
    await noSwarmRunning(hooks);
    const swarmId = await hooks.reviewSurfaces.swarms.start({
      goal: "Look at the stats module",
      recipe: recipeFile,
      modelPath: modelPath(),
      workspace: repo,
      stateDir,
      threads: 1,
      policy: { allow: [], ask: [], deny: [] },
      script: {
        agents: {
          "agent-1": [
            { tool: "post_finding", args: { kind: "OBSERVED", text: "stats.js has mean and median" } },
            { tool: "finish", args: { summary: "looked" } },
          ],
          synthesist: [{ tool: "write_report", args: { title: "Short run", body: "stats.js has mean and median." } }],
        },
      },
    });
    const notice = await waitFor(
      "the end-of-swarm notice",
      () => hooks.swarms.notices.recent().find((n) => n.text.includes("Look at the stats module")),
      300_000,
    );
    const view = hooks.swarms.store.swarm(swarmId)!;
    assert.equal(view.status, "completed", view.endReason);
    assert.equal(notice.level, "info");
    assert.match(notice.text, /^Swarmboard: swarm “Look at the stats module” finished\.$/);
    assert.deepEqual(notice.actions, view.reportPath ? ["Review Branches", "Open Report"] : ["Review Branches"]);
    assert.ok(view.reportPath, "the synthesist's report is offered");

    const swarmNode = hooks.swarmsView.roots().find((n) => n.kind === "swarm" && n.swarmId === swarmId)!;
    assert.match(swarmNode.description ?? "", /· completed ·/);
    assert.match(swarmNode.tooltip ?? "", /^1 worker \+ 1 synthesist$/m);
    if (vscode.env.uiKind === vscode.UIKind.Web) {
      await vscode.commands.executeCommand("swarmboard.swarms.focus");
      await new Promise((r) => setTimeout(r, 1500));
      await requestScreenshot("swarm-end-notification");
    }
  });

  it("ends a swarm whose set-up fails after the launch returned: failed in the view, the decode notification closed, an error notice", async () => {
    const { hooks } = await swarmboard();
    const { root, repo } = sampleRepo("unfit");
    const recipeFile = path.join(root, "short-recipe.json");
    writeFileSync(recipeFile, JSON.stringify(recipe));
    await noSwarmRunning(hooks);
    // 256 cells (the least a launch takes) cannot hold the shared context: found only when the trunk is decoded.
    const { swarms } = hooks.reviewSurfaces;
    const swarmId = await swarms.start(
      {
        goal: "A swarm whose shared context does not fit",
        recipe: recipeFile,
        modelPath: modelPath(),
        workspace: repo,
        stateDir: path.join(root, "state"),
        threads: 1,
        kvCells: 256,
        policy: { allow: [], ask: [], deny: [] },
        script: { agents: { "agent-1": [{ tool: "finish", args: { summary: "-" } }], synthesist: [] } },
      },
      { decodeNotice: true },
    );
    assert.notEqual(swarms.decodeNotice(swarmId), undefined, "the decode notification was shown, as a launch shows it");
    const notice = await waitFor(
      "the failed swarm's notice",
      () => hooks.swarms.notices.recent().find((n) => n.text.includes("does not fit")),
      120_000,
    );
    const view = hooks.swarms.store.swarm(swarmId)!;
    assert.equal(view.status, "failed", "the view is not left starting");
    assert.match(view.endReason ?? "", /^the swarm could not start: /);
    assert.equal(notice.level, "error");
    assert.match(notice.text, /failed: the swarm could not start: /);
    assert.deepEqual(notice.actions, ["Review Branches", "Show Log"]);
    await waitFor("the decode notification to close", () => swarms.decodeNotice(swarmId) === "closed", 10_000);
    await waitFor(
      "the tree to show the swarm failed",
      () =>
        hooks.swarmsView
          .roots()
          .find((n) => n.kind === "swarm" && n.swarmId === swarmId && /· failed ·/.test(n.description ?? "")),
      20_000,
    );
    if (vscode.env.uiKind === vscode.UIKind.Web) {
      await vscode.commands.executeCommand("swarmboard.swarms.focus");
      await new Promise((r) => setTimeout(r, 1500));
      await requestScreenshot("swarm-setup-failed");
    }
  });
});
