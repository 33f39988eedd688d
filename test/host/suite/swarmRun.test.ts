// Issue 7 end to end in the real host: a scripted 8-agent swarm on stories260K launched through the command
// (no prompts), photographed while it runs in a dark and a light theme, stopped with Stop Swarm, then read
// back from the tree, the status bar and the panel's DOM, which must all agree with the store.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import type { LaunchResult } from "../../../src/host/launch/launchArgs";
import { budgetView } from "../../../src/host/panel/panelProjection";
import type { SwarmboardTestHooks } from "../../../src/host/testHooks";
import type { ScriptedCall, TurnScript } from "../../../src/protocol/turnScript";
import { requestScreenshot } from "./automationMarkers";
import { swarmboard, waitFor } from "./hostApi";

const repoRoot = path.resolve(__dirname, "../../../..");
const modelsDir = process.env.SWARMBOARD_MODELS_DIR ?? path.resolve(repoRoot, "../shared/models");
const modelPath = path.join(modelsDir, "stories260K.gguf");
export const xssText =
  'look: <img src=x onerror="window.swarmboardInjected=1"> and </script><script>window.swarmboardInjected=2</script>';
const agents = 8;

function agentScript(n: number): ScriptedCall[] {
  const line = n + 1;
  const next = `agent-${(n % agents) + 1}`;
  return [
    {
      tool: "post_finding",
      args: {
        kind: "OBSERVED",
        text: n === 1 ? xssText : `agent-${n} starts on the stats module`,
        refs: [{ path: "src/stats.js", line }],
      },
    },
    { tool: "grep_board", args: {} },
    { tool: "send_message", args: { to: next, text: `agent-${n} reads src/stats.js; take the tests, ${next}` } },
    {
      tool: "post_finding",
      args: {
        kind: "FACT",
        text: `agent-${n}: median lives in src/stats.js`,
        refs: [{ path: "src/stats.js", line: 9 }],
      },
    },
    { tool: "grep_board", args: { kind: "FACT" } },
    { tool: "list_dir", args: { path: "src" } },
    {
      tool: "post_finding",
      args: {
        kind: "OBSERVED",
        text: `agent-${n}: the README names the tests`,
        refs: [{ path: "README.md", line: 1 }],
      },
    },
    { tool: "grep_board", args: { kind: "OBSERVED" } },
    { tool: "send_message", args: { to: "swarm", text: `agent-${n} is halfway` } },
    {
      tool: "post_finding",
      args: {
        kind: "FACT",
        text: `agent-${n}: the tests cover mean and median`,
        refs: [{ path: "test/stats.test.js", line: 1 }],
      },
    },
    { tool: "grep_board", args: { author: next } },
    { tool: "post_finding", args: { kind: "OBSERVED", text: `agent-${n}: done reading` } },
  ];
}

function script(): TurnScript {
  const out: TurnScript["agents"] = {};
  for (let n = 1; n <= agents; n++) out[`agent-${n}`] = agentScript(n);
  out.synthesist = [{ tool: "finish", args: { summary: "stopped early" } }];
  return { agents: out };
}

async function probeDom(hooks: SwarmboardTestHooks, nonce: string) {
  const panel = await waitFor("the panel to be ready", () => hooks.panel()?.isReady && hooks.panel());
  const reply = await panel.probe(nonce);
  assert.ok(reply.dom, "the page answered without its DOM facts");
  return reply.dom;
}

describe("a swarm launched from the command (8 scripted agents on stories260K)", function () {
  this.timeout(300_000);
  let hooks: SwarmboardTestHooks;
  let swarmId: string;

  before(async function () {
    assert.ok(existsSync(modelPath), `the test model is missing: ${modelPath} (set SWARMBOARD_MODELS_DIR)`);
    hooks = (await swarmboard()).hooks;
    await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready", 60_000);
  });

  it("refuses bad launch arguments with what to fix", async () => {
    const result = await vscode.commands.executeCommand<LaunchResult>("swarmboard.launchSwarm", {
      goal: " ",
      recipe: "research",
    });
    assert.equal(result.outcome, "refused");
    assert.match(result.outcome === "refused" ? result.reason : "", /goal: expected a goal/);
  });

  it("launches through the command and shows the run while it goes (screenshots in dark and light)", async () => {
    const result = await vscode.commands.executeCommand<LaunchResult>("swarmboard.launchSwarm", {
      goal: "Read the stats module and report what it does",
      recipe: "research",
      agents,
      modelPath,
      threads: 2,
      kvCells: 16_384,
      script: script(),
    });
    assert.equal(result.outcome, "launched", JSON.stringify(result));
    swarmId = result.outcome === "launched" ? result.swarmId : "";
    const store = hooks.swarms.store;
    // All 8 agents live and a few findings in: enough to show the run (waiting for every agent's costs time).
    await waitFor(
      "8 live agents and findings from 3 of them",
      () => {
        const view = store.swarm(swarmId);
        const authors = new Set(view?.entries.map((e) => e.author));
        return view?.status === "failed" ? true : (view?.agents.length ?? 0) >= agents && authors.size >= 3;
      },
      200_000,
    );
    assert.equal(store.swarm(swarmId)?.status, "running", store.swarm(swarmId)?.endReason);
    if (vscode.env.uiKind !== vscode.UIKind.Web) return;
    await vscode.commands.executeCommand("notifications.clearAll");
    await vscode.commands.executeCommand("swarmboard.swarms.focus");
    await vscode.commands.executeCommand("swarmboard.openPanel");
    const workbench = vscode.workspace.getConfiguration("workbench");
    try {
      for (const [theme, name] of [
        ["Default Dark Modern", "run-8-agents-dark"],
        ["Default Light Modern", "run-8-agents-light"],
      ]) {
        await workbench.update("colorTheme", theme, vscode.ConfigurationTarget.Global);
        await new Promise((r) => setTimeout(r, 1500)); // the webview repaints with the new theme's variables
        await probeDom(hooks, `shot-${name}`);
        await requestScreenshot(name);
      }
    } finally {
      await workbench.update("colorTheme", undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("stops with Stop Swarm", async () => {
    const stopping = await vscode.commands.executeCommand<boolean>("swarmboard.stopSwarm");
    assert.equal(stopping, true);
    const view = await waitFor(
      "the swarm to end",
      () => {
        const v = hooks.swarms.store.swarm(swarmId);
        return v && v.status !== "running" && v.status !== "starting" ? v : undefined;
      },
      120_000,
    );
    assert.ok(view.status === "stopped" || view.status === "completed", `${view.status}: ${view.endReason}`);
  });

  it("shows the swarm, its agents and their findings in the Swarms tree, and the model with its mode", () => {
    const view = hooks.swarms.store.swarm(swarmId)!;
    const roots = hooks.swarmsView.roots();
    const swarmNode = roots.find((n) => n.kind === "swarm" && n.swarmId === swarmId);
    assert.ok(swarmNode, `no swarm node among ${roots.map((r) => r.label).join(", ")}`);
    assert.equal(swarmNode.label, view.goal);
    const model = roots.find((n) => n.kind === "model");
    assert.equal(model?.label, "Model: stories260K");
    assert.match(model?.description ?? "", /^(shared cells|copy mode)$/);
    const agentNodes = hooks.swarms.children(swarmNode);
    assert.deepEqual(
      agentNodes.map((a) => a.agentId),
      view.agents.map((a) => a.id),
    );
    assert.ok(agentNodes.length >= agents);
    const first = agentNodes.find((a) => a.agentId === "agent-1")!;
    assert.match(first.description ?? "", /^[a-z]+ · \d+ tok · \d+ cells/);
    const findings = hooks.swarms.children(first).map((f) => f.label);
    assert.ok(findings.includes(xssText), `agent-1's findings: ${JSON.stringify(findings)}`);
    const own = view.entries.filter(
      (e) => e.author === "agent-1" && ["OBSERVED", "FACT", "FAIL", "PATCH_SUMMARY"].includes(e.kind),
    );
    assert.deepEqual(
      findings,
      own.map((e) => e.text),
    );
  });

  it("opens a finding's file at its line from the tree", async () => {
    const swarmNode = hooks.swarmsView.roots().find((n) => n.kind === "swarm" && n.swarmId === swarmId)!;
    const first = hooks.swarms.children(swarmNode).find((a) => a.agentId === "agent-1")!;
    const finding = hooks.swarms.children(first).find((f) => f.label === xssText);
    assert.ok(finding?.command, "the finding has no open command");
    await vscode.commands.executeCommand(finding.command.command, ...(finding.command.arguments ?? []));
    const editor = await waitFor("the finding's file in an editor", () => vscode.window.activeTextEditor);
    assert.equal(path.basename(editor.document.uri.fsPath), "stats.js");
    assert.equal(editor.selection.active.line, 1, "agent-1's finding points at src/stats.js:2 (0-based line 1)");
    // A reference that leaves the workspace is refused (and logged), never opened.
    await vscode.commands.executeCommand("swarmboard.openFindingRef", {
      swarmId,
      path: "../../../etc/hostname",
      line: 1,
    });
    assert.ok(hooks.log.recentLines().some((l) => l.includes("refused to open ../../../etc/hostname")));
    assert.notEqual(vscode.window.activeTextEditor?.document.uri.fsPath, "/etc/hostname");
  });

  it("shows one lane per agent, the findings feed and the worker's KV numbers in the panel's DOM", async () => {
    await vscode.commands.executeCommand("swarmboard.openPanel");
    const view = hooks.swarms.store.swarm(swarmId)!;
    const stats = view.stats;
    assert.ok(stats, "the store holds no kv-stats for the swarm");
    const expected = budgetView(stats);
    // The panel is updated within a short coalescing delay; read it back until it shows the store's last stats.
    // The worker's memory beyond weights and KV: its figures sit in the budget card beside the KV figures.
    const memory = expected.memory;
    assert.ok(memory, "the local worker reports its memory in the budget");
    const numbers = { ...expected, ...memory };
    const shows = (d: Awaited<ReturnType<typeof probeDom>>) =>
      d.laneIds.length === view.agents.length &&
      Object.entries(numbers).every(([k, v]) => typeof v !== "number" || d.budget[k] === v);
    let dom = await probeDom(hooks, "dom-0");
    for (let i = 1; i < 100 && !shows(dom); i++) {
      await new Promise((r) => setTimeout(r, 200));
      dom = await probeDom(hooks, `dom-${i}`);
    }
    assert.deepEqual(
      dom.laneIds,
      view.agents.map((a) => a.id),
    );
    assert.deepEqual(
      dom.findingTexts,
      view.entries.map((e) => e.text),
    );
    assert.ok(memory.perAgentRestBytes !== undefined, "measured per agent while the 8 agents ran");
    assert.ok(memory.restBytes > 0 && memory.fixedRestBytes > 0, JSON.stringify(memory));
    for (const [field, value] of Object.entries(numbers)) {
      if (typeof value !== "number") continue;
      assert.equal(
        dom.budget[field],
        value,
        `budget ${field}: the page shows ${dom.budget[field]}, the worker said ${value}`,
      );
    }
    assert.equal(hooks.swarms.statusBar.text.includes("stories260K"), true, hooks.swarms.statusBar.text);
  });

  it("shows a finding with markup as text and runs none of it", async () => {
    const dom = await probeDom(hooks, "xss");
    assert.ok(dom.findingTexts.includes(xssText), "the finding is shown with its text intact");
    assert.equal(dom.imgElements, 0, "no <img> element was created from a finding");
    assert.equal(dom.scriptElements, 0, "a <script> element was created inside the app from a finding");
    assert.equal(dom.injectedRan, false, "an injected handler ran");
  });
});
