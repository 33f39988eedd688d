// Issue 29 in the real host: a call is visible while it is written. One agent writes a module in one write_file
// call, forced token by token through the tiny ChatML model; while it decodes, the panel's lane (and the tree's
// agent line) show the call's tool and path with its growing size, and the agent's token count moves. A
// screenshot is taken mid-call; once the call is complete the preview is gone and the call is in the lane. (A
// stop waits for the call's end: the module is short, as the machine decodes a few tokens a second.)
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import type { TurnScript } from "../../../src/protocol/turnScript";
import { requestScreenshot } from "./automationMarkers";
import { noSwarmRunning, swarmboard, waitFor } from "./hostApi";
import { modelPath, sampleRepo } from "./reviewSwarmRun";

/** A module long enough that its call takes many decode steps (a few tokens a second on a busy 2-core machine). */
function bigModule(): string {
  const lines: string[] = ["// Summary statistics over arrays of numbers."];
  for (let i = 0; lines.join("\n").length < 600; i++)
    lines.push(`export function scaled${i}(values) {\n  return values.map((v) => v * ${i + 2});\n}\n`);
  return lines.join("\n");
}

const script: TurnScript = {
  agents: {
    "agent-1": [
      { tool: "write_file", args: { path: "src/scaled.js", content: bigModule() } },
      { tool: "finish", args: { summary: "scaled helpers written" } },
    ],
    synthesist: [{ tool: "finish", args: { summary: "-" } }],
  },
};
const recipe = {
  name: "live-call",
  description: "One writer; a synthesist.",
  roles: [
    { name: "worker", count: 1, tools: ["read_file", "write_file"], instructions: "Write what the goal asks." },
    { name: "synthesist", count: 1, tools: ["grep_board"], instructions: "Write the report." },
  ],
  topology: {
    kind: "dag",
    stages: [
      { name: "work", roles: ["worker"] },
      { name: "report", roles: ["synthesist"], after: ["work"] },
    ],
  },
  visibility: "shared",
  synthesist: "synthesist",
  budgets: { wallClockMs: 10 * 60_000, tokensPerAgent: 100_000, kvCells: 32_768, steps: 10 },
  taskSources: ["goal"],
  merge: false,
};

describe("a call while it is written, in the panel's lane", function () {
  this.timeout(300_000);

  it("shows the call's tool, path and growing size mid-call, with the token count moving", async () => {
    const { hooks } = await swarmboard();
    await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready", 60_000);
    await noSwarmRunning(hooks);
    const { root, repo } = sampleRepo("live-call");
    const stateDir = path.join(root, "state");
    mkdirSync(stateDir);
    const recipeFile = path.join(root, "live-call.json");
    writeFileSync(recipeFile, JSON.stringify(recipe));
    await vscode.commands.executeCommand("swarmboard.openPanel");
    const swarmId = await hooks.reviewSurfaces.swarms.start({
      goal: "Add the scaled helpers",
      recipe: recipeFile,
      modelPath: modelPath("tiny-random-qwen2-chatml.gguf"),
      workspace: repo,
      stateDir,
      threads: 2,
      policy: { allow: [], ask: [], deny: [] },
      script,
    });
    const agent = () => hooks.swarms.store.swarm(swarmId)?.agents.find((a) => a.id === "agent-1");
    const lane = () => hooks.swarms.panelState().swarm?.agents.find((a) => a.id === "agent-1");
    // The preview names the path once its argument is written, then its size grows.
    const first = await waitFor(
      "the call's preview with its path",
      () => (agent()?.writing?.preview.includes("src/scaled.js") ?? false) && agent()!.writing,
      180_000,
    );
    assert.equal(first.tool, "write_file");
    assert.match(lane()?.current ?? "", /writing write_file src\/scaled\.js · [\d.]+ K?B…/);
    const tokensAt = agent()!.tokens;
    const later = await waitFor(
      "the preview to grow",
      () => {
        const w = agent()?.writing;
        return w !== undefined && w.tokens > first.tokens && w;
      },
      60_000,
    );
    assert.ok(agent()!.tokens > tokensAt, `the token count moves (${tokensAt} -> ${agent()!.tokens})`);
    assert.ok(later.tokens > first.tokens);
    const swarmNode = hooks.swarmsView.roots().find((n) => n.kind === "swarm" && n.swarmId === swarmId);
    const agentNode = hooks.swarms.children(swarmNode!).find((n) => n.agentId === "agent-1");
    assert.match(agentNode?.description ?? "", /writing write_file src\/scaled\.js/);
    if (vscode.env.uiKind === vscode.UIKind.Web) await requestScreenshot("lane-live-call");
    assert.ok(agent()?.writing !== undefined, "the screenshot was taken while the call was still written");

    await waitFor("the swarm to end", () => hooks.swarms.store.swarm(swarmId)?.status === "completed", 240_000);
    assert.equal(agent()?.writing, undefined, "no preview once the call is complete");
    assert.ok(
      agent()?.lane.some((i) => i.kind === "call" && i.text.includes("write_file")),
      "the complete call is in the lane",
    );
  });
});
