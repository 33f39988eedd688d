// Tests on save for a standing swarm in the real host: the person writes a new test file (untracked, never
// committed) and saves it in the editor; the swarm runs its recipe's test command on the checkout as it is now (a
// snapshot through a private index, in a scratch worktree, sandboxed), and the new test's failure reaches the router
// as a test-failure trigger. The person's checkout, index and refs are as they left them.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import { watchRecipeInput } from "../../../src/core/builtinRecipes";
import type { TurnScript } from "../../../src/protocol/turnScript";
import { swarmTrace, waitingRouter } from "./swarmTrace";
import { noSwarmRunning, stopSwarmsLeftRunning, swarmboard, waitFor } from "./hostApi";
import { git, modelPath, sampleRepo } from "./reviewSwarmRun";

const newTest = "the median of one value is that value";
const script: TurnScript = waitingRouter;

const digest = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe("Start Watching: a save runs the recipe's tests on the checkout as it is", function () {
  this.timeout(300_000);
  after(async () => stopSwarmsLeftRunning((await swarmboard()).hooks));

  it("sends a failure of a saved, uncommitted test file to the router, and leaves the checkout alone", async () => {
    const { hooks } = await swarmboard();
    await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready", 60_000);
    await noSwarmRunning(hooks);
    const { root, repo } = sampleRepo("watch-saves");
    const recipe = path.join(root, "watch-with-tests.json");
    writeFileSync(recipe, JSON.stringify({ ...watchRecipeInput, name: "watch-tests", testCommand: "npm test" }));
    const result = await vscode.commands.executeCommand<{ outcome: string; swarmId?: string; reason?: string }>(
      "swarmboard.startWatching",
      {
        workspace: repo,
        recipe,
        modelPath: modelPath("tiny-random-qwen2-chatml.gguf"),
        threads: 2,
        kvCells: 16_384,
        script,
      },
    );
    assert.equal(result?.outcome, "launched", result?.reason);
    const swarmId = result!.swarmId!;
    const stateDir = hooks.swarms.store.place(swarmId)!.stateDir;
    await waitFor("the router to start", () => (hooks.swarms.store.swarm(swarmId)?.agents.length ?? 0) >= 1, 120_000);

    const file = path.join(repo, "test", "single.test.js");
    // Created through the editor's file service, as a person's New File would: a file written behind its back just
    // before it is opened can leave the model's idea of the file's age behind the watcher's (a save then fails).
    await vscode.workspace.fs.writeFile(vscode.Uri.file(file), Buffer.from('const test = require("node:test");\n'));
    const index = path.join(repo, ".git", "index");
    const before = { index: digest(index), refs: git(repo, "for-each-ref", "refs/heads", "refs/tags") };
    const document = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(document);
    const body = [
      'const assert = require("node:assert");',
      'const { median } = require("../src/stats.js");',
      `test("${newTest}", () => assert.strictEqual(median([7]), 8));`,
      "",
    ].join("\n");
    assert.equal(await editor.edit((e) => e.insert(new vscode.Position(1, 0), body)), true, "the editor took the edit");
    assert.equal(document.isDirty, true, "the edit made the document dirty");
    assert.equal(await document.save(), true, "the editor saved the file");
    assert.equal(readFileSync(file, "utf8"), document.getText(), "the saved text is on disk");

    const failure = await waitFor(
      "the saved test's failure as a trigger",
      () => swarmTrace(stateDir).find((e) => e.type === "trigger" && e.trigger.test?.includes(newTest)),
      180_000,
    );
    assert.equal(failure.type === "trigger" && failure.trigger.source, "test-failure");
    assert.deepEqual(failure.type === "trigger" && failure.route, { route: "router" });
    assert.equal(digest(index), before.index, "the person's index is untouched");
    assert.equal(git(repo, "for-each-ref", "refs/heads", "refs/tags"), before.refs, "no branch or tag was made");
    assert.equal(git(repo, "status", "--porcelain"), "?? test/single.test.js", "the checkout is as the person left it");

    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
    await vscode.commands.executeCommand("swarmboard.stopSwarm", { swarmId });
    await waitFor("the swarm to end", () => hooks.swarms.store.swarm(swarmId)?.status === "stopped", 60_000);
  });
});
