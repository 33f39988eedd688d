// Issue 26 in the real host: the window attaches to the user's shared worker (started detached on first need)
// instead of forking its own, and a swarm runs on in it while this window's connection is gone (what a reload does
// to it): after the window attaches again the swarm is still running there, ends completed (not interrupted) with
// every finding on the window's board (those posted while the connection was gone too: it catches up), and
// the same server process served both connections, with one model load. The suite runs on a server of its own
// (ownSharedWorker), so the pid and the load count are this suite's alone.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import type { TurnScript } from "../../../src/protocol/turnScript";
import { noSwarmRunning, swarmboard, waitFor } from "./hostApi";
import { modelPath, sampleRepo, shortRecipe } from "./reviewSwarmRun";
import { attachCount, ownSharedWorker, serverStatus } from "./sharedServer";

const posts = Array.from({ length: 40 }, (_, i) => ({
  tool: "post_finding",
  args: { kind: "OBSERVED", text: `observation ${i + 1} of the stats module` },
}));
const script: TurnScript = {
  agents: {
    "agent-1": [...posts, { tool: "finish", args: { summary: "looked" } }],
    synthesist: [{ tool: "finish", args: { summary: "-" } }],
  },
};

/** The short swarm, with room for the worker's 40 findings. */
const recipe = { ...shortRecipe, budgets: { ...shortRecipe.budgets, steps: 100 } };

describe("the shared worker", function () {
  this.timeout(600_000);
  const own = ownSharedWorker();

  it("attaches instead of forking, and a swarm runs on while the window's connection is gone", async () => {
    const { hooks } = await swarmboard();
    await noSwarmRunning(hooks);
    assert.equal(hooks.worker.shared, true, "the window's worker is a shared one");
    const serverPid = own.serverPid;
    assert.notEqual(serverPid, own.previousPid, "a server of this suite's own, not the window's worker before it");
    assert.equal((await serverStatus()).pid, serverPid, "the window's worker is the server in this suite's folder");

    const { root, repo } = sampleRepo("shared");
    const stateDir = path.join(root, "state");
    mkdirSync(stateDir);
    const recipeFile = path.join(root, "shared-recipe.json");
    writeFileSync(recipeFile, JSON.stringify(recipe));
    const swarmId = await hooks.reviewSurfaces.swarms.start({
      goal: "Count the stats module's functions from the shared worker",
      recipe: recipeFile,
      modelPath: modelPath(),
      workspace: repo,
      stateDir,
      threads: 1,
      policy: { allow: [], ask: [], deny: [] },
      script,
    });
    const findings = () => hooks.swarms.store.swarm(swarmId)?.entries.length ?? 0;
    await waitFor("the swarm's first findings", () => findings() >= 2, 180_000);

    // What a reload does to the worker's side: this window's connection closes; then the window attaches again.
    const attachedBefore = attachCount(hooks);
    await vscode.commands.executeCommand("swarmboard.restartWorker");
    await waitFor("the window to attach again", () => attachCount(hooks) > attachedBefore, 180_000);
    const status = await serverStatus();
    assert.equal(status.pid, serverPid, "the same server served both connections");
    assert.equal(status.modelLoads, 1);
    await waitFor(
      "the swarm to end",
      () => hooks.swarms.store.swarm(swarmId)?.status !== "running" || undefined,
      300_000,
    );
    const view = hooks.swarms.store.swarm(swarmId);
    assert.equal(view?.status, "completed", `ended ${view?.status}: the swarm ran on in the shared worker`);
    const texts = new Set(view?.entries.map((e) => e.text));
    const missing = posts.map((p) => p.args.text).filter((t) => !texts.has(t));
    assert.deepEqual(missing, [], "every finding is on the board, those posted while the connection was gone too");
    assert.equal(view?.entries.length, posts.length, "each once");
  });
});
