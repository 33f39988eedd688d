// A swarm on a remote engine, launched from VS Code: with swarmboard.engine = remote the launch loads no model in
// the worker, the swarm's tokens are computed by a real llama-server on loopback (built from the llama.cpp source
// node-llama-cpp ships), and the KV budget says so with the engine's own cached-token counts. An engine that does
// not answer, and a remote engine without a URL, are refused before anything starts, saying what to do.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as vscode from "vscode";
import { freePort, LlamaServerProcess } from "../../../bench/llamaServerProcess";
import type { LaunchResult } from "../../../src/host/launch/launchArgs";
import { requestScreenshot } from "./automationMarkers";
import { noSwarmRunning, swarmboard, waitFor } from "./hostApi";
import { modelPath } from "./reviewSwarmRun";

const recipe = {
  name: "remote",
  description: "One worker that posts what it saw, on a remote engine.",
  roles: [{ name: "worker", count: 1, tools: ["post_finding"], instructions: "Post one finding, then finish." }],
  topology: { kind: "fanout" },
  visibility: "shared",
  budgets: { wallClockMs: 10 * 60_000, tokensPerAgent: 100_000, kvCells: 32_768, steps: 40 },
  taskSources: ["goal"],
  merge: false,
};

const chatModel = () => modelPath("tiny-random-qwen2-chatml.gguf");

const script = {
  agents: {
    "agent-1": [
      { tool: "post_finding", args: { kind: "OBSERVED", text: "computed by the remote engine" } },
      { tool: "finish", args: { summary: "done" } },
    ],
  },
};

describe("a swarm on a remote engine, launched from VS Code", function () {
  this.timeout(300_000);
  let server: LlamaServerProcess;
  let recipeFile: string;
  const config = () => vscode.workspace.getConfiguration("swarmboard");

  before(async () => {
    // A model whose training context holds a swarm's trunk (the server caps a slot's context at it).
    server = await LlamaServerProcess.start({
      modelPath: chatModel(),
      slots: 2,
      contextCells: 32_768,
      alias: "host-model",
    });
    recipeFile = path.join(mkdtempSync(path.join(os.tmpdir(), "swarmboard-remote-")), "remote.json");
    writeFileSync(recipeFile, JSON.stringify(recipe));
  });

  after(async () => {
    for (const key of ["engine", "engineUrl", "engineModel"])
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await server?.stop();
  });

  const launch = () =>
    Promise.resolve(
      vscode.commands.executeCommand<LaunchResult>("swarmboard.launchSwarm", {
        goal: "Say what computes this swarm",
        recipe: recipeFile,
        modelPath: chatModel(),
        threads: 1,
        script,
      }),
    );

  it("runs the swarm's tokens on the engine and shows its cached prompt tokens in the budget (screenshot)", async () => {
    const { hooks } = await swarmboard();
    await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready", 60_000);
    await noSwarmRunning(hooks);
    await config().update("engine", "remote", vscode.ConfigurationTarget.Global);
    await config().update("engineUrl", server.url, vscode.ConfigurationTarget.Global);
    await config().update("engineModel", "host-model", vscode.ConfigurationTarget.Global);
    const result = await launch();
    assert.equal(result.outcome, "launched", "reason" in result ? result.reason : "");
    const swarmId = result.outcome === "launched" ? result.swarmId : "";
    const view = () => hooks.swarms.store.swarm(swarmId);
    const ended = ["completed", "budget", "stopped", "failed"];
    await waitFor("the swarm to end", () => ended.includes(view()?.status ?? "") && view(), 240_000);
    const workerLines = () =>
      hooks.log
        .recentLines()
        .filter((line) => /worker|Error|error/.test(line))
        .slice(-15)
        .join("\n");
    assert.equal(view()?.status, "completed", `${view()?.endReason}\n${workerLines()}`);
    assert.equal(view()?.mode, "remote-engine");
    const engine = view()?.stats?.engine;
    assert.ok(engine, "the budget carries the engine's figures");
    assert.equal(engine.model, "host-model");
    assert.equal(engine.cacheReported, true);
    assert.ok(engine.requests >= 3, `requests ${engine.requests}`);
    assert.ok(engine.cachedPromptTokens > 0, JSON.stringify(engine));
    assert.ok(
      view()?.entries.some((e) => e.author === "agent-1" && e.text === "computed by the remote engine"),
      "agent-1's finding is on the board",
    );
    if (vscode.env.uiKind === vscode.UIKind.Web) {
      await vscode.commands.executeCommand("swarmboard.openPanel");
      await waitFor("the panel to be ready", () => hooks.panel()?.isReady, 30_000);
      await new Promise((r) => setTimeout(r, 1000));
      await requestScreenshot("remote-engine-panel");
    }
  });

  it("refuses a launch whose engine does not answer, before anything starts", async () => {
    const { hooks } = await swarmboard();
    const before = hooks.swarms.store.swarms().length;
    await config().update("engine", "remote", vscode.ConfigurationTarget.Global);
    await config().update("engineUrl", `http://127.0.0.1:${await freePort()}`, vscode.ConfigurationTarget.Global);
    const result = await launch();
    assert.equal(result.outcome, "failed");
    assert.match("reason" in result ? result.reason : "", /unreachable.*Start the server/);
    assert.equal(hooks.swarms.store.swarms().length, before, "no swarm was added");
  });

  it("refuses a remote engine without a URL, naming the setting", async () => {
    await config().update("engine", "remote", vscode.ConfigurationTarget.Global);
    await config().update("engineUrl", "", vscode.ConfigurationTarget.Global);
    const result = await launch();
    assert.equal(result.outcome, "refused");
    assert.match("reason" in result ? result.reason : "", /swarmboard\.engineUrl is empty/);
  });
});
