// Issue 26 in the real host: with `swarmboard.sharedWorker` on, the window attaches to the user's shared worker
// (started detached on first need) instead of forking its own, and a swarm runs on in it while this window's
// connection is gone (what a reload does to it): after the window attaches again the swarm is still running there,
// ends completed (not interrupted), and the same server process served both connections.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import { connectToServer } from "../../../src/cli/serverConnection";
import { serverStatusMethod, serverStopMethod } from "../../../src/protocol/serverRpc";
import type { TurnScript } from "../../../src/protocol/turnScript";
import { noSwarmRunning, swarmboard, waitFor } from "./hostApi";
import { modelPath, sampleRepo, shortRecipe } from "./reviewSwarmRun";

/** The version stamped into the bundle the host runs (tests compiled by tsc see "dev"). */
const version: string = JSON.parse(readFileSync(path.resolve(__dirname, "../../../../package.json"), "utf8")).version;

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
  const config = () => vscode.workspace.getConfiguration("swarmboard");

  let was: boolean | undefined;
  before(() => (was = config().inspect<boolean>("sharedWorker")?.globalValue));

  after(async () => {
    // As it was for the suites after (the runner may have turned it on for all); a private worker stops the server.
    await config().update("sharedWorker", was, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("swarmboard.restartWorker");
    if (config().get<boolean>("sharedWorker") === true) return;
    const connection = await connectToServer("test", version).catch(() => undefined);
    if (connection) {
      await connection.peer.request(serverStopMethod, {}).catch(() => undefined);
      connection.close();
    }
  });

  it("attaches instead of forking, and a swarm runs on while the window's connection is gone", async () => {
    const { hooks } = await swarmboard();
    await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready", 120_000);
    await noSwarmRunning(hooks);
    const privatePid = hooks.swarms.workerPid();
    await config().update("sharedWorker", true, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("swarmboard.restartWorker");
    const attached = () => hooks.log.recentLines().filter((l) => l.includes("attached to the shared worker")).length;
    await waitFor("the window to attach to the shared worker", () => attached() >= 1, 180_000);
    await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready", 60_000);
    const ready = hooks.worker.state;
    const serverPid = ready.state === "ready" ? ready.pid : undefined;
    assert.ok(serverPid !== undefined && serverPid !== privatePid, "a different process than the private worker");

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
    await vscode.commands.executeCommand("swarmboard.restartWorker");
    await waitFor("the window to attach again", () => attached() >= 2, 180_000);
    const direct = await connectToServer("test", version);
    try {
      const status = await direct.peer.request(serverStatusMethod, {});
      assert.equal(status.pid, serverPid, "the same server served both connections");
      assert.equal(status.modelLoads, 1);
    } finally {
      direct.close();
    }
    await waitFor(
      "the swarm to end",
      () => hooks.swarms.store.swarm(swarmId)?.status !== "running" || undefined,
      300_000,
    );
    const view = hooks.swarms.store.swarm(swarmId);
    assert.equal(view?.status, "completed", `ended ${view?.status}: the swarm ran on in the shared worker`);
  });
});
