// Issue 18: Swarmboard's language model tools in the real extension host, called through vscode.lm.invokeTool
// as another agent would: launch, status, findings by kind, path and text, stop; bad input is a tool error that names the field. The swarm is scripted (stories260K) and
// runs on a repository with an AGENTS.md, whose listing the panel shows (photographed).
import assert from "node:assert/strict";
import * as vscode from "vscode";
import type { SwarmboardTestHooks } from "../../../src/host/testHooks";
import { requestScreenshot } from "./automationMarkers";
import { launchOverrides, makeRulesRepo } from "./delegationFixtures";
import { swarmboard, waitFor } from "./hostApi";

const toolNames = ["swarmboard_launch", "swarmboard_status", "swarmboard_findings", "swarmboard_stop"];
const talkNames = ["message_swarm", "add_task", "answer_question", "send_trigger"].map((n) => `swarmboard_${n}`);

async function invoke(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : "")).join("");
}

describe("language model tools (invokeTool on a scripted swarm)", function () {
  this.timeout(900_000);
  let hooks: SwarmboardTestHooks;
  let swarmId = "";

  before(async function () {
    hooks = (await swarmboard()).hooks;
    await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready", 60_000);
    hooks.delegation.testOverrides = launchOverrides(makeRulesRepo());
  });

  after(() => {
    hooks.delegation.testOverrides = {};
  });

  it("contributes the delegation and talk tools with their input schemas", () => {
    for (const name of [...toolNames, ...talkNames]) {
      const tool = vscode.lm.tools.find((t) => t.name === name);
      assert.ok(tool, `${name} is registered`);
      assert.equal((tool.inputSchema as { type?: string } | undefined)?.type, "object", `${name} has a schema`);
    }
  });

  it("refuses bad input with a tool error that names the field", async () => {
    await assert.rejects(invoke("swarmboard_findings", { kind: ["NOPE"] }), /swarmboard_findings: .*kind\.0/);
    await assert.rejects(invoke("swarmboard_launch", { goal: "  " }), /goal: expected a goal/);
    await assert.rejects(invoke("swarmboard_status", { swarm: "x" }), /Unrecognized key/);
  });

  it("launches through the palette's launch path", async () => {
    // Called outside a chat request, VS Code 1.100 runs the tool without showing its confirmation (seen here).
    const text = await invoke("swarmboard_launch", {
      goal: "Read the stats module and report",
      recipe: "research",
      agents: 2,
    });
    const m = /Launched swarm (\S+) \(recipe research, 2 agents\)/.exec(text);
    assert.ok(m, text);
    swarmId = m[1]!;
    assert.ok(hooks.swarms.store.place(swarmId), "the swarm is in the store the palette's launches use");
    assert.ok(hooks.log.recentLines().some((l) => l.includes(`swarm ${swarmId} launched (research, 2 agents`)));
  });

  it("reports status and findings as text an agent can use", async () => {
    await waitFor(
      "a FACT and an OBSERVED from both agents",
      () => (hooks.swarms.store.swarm(swarmId)?.entries.filter((e) => e.kind !== "MESSAGE").length ?? 0) >= 4,
      500_000,
    );
    const status = await invoke("swarmboard_status", { swarmId });
    assert.match(status, new RegExp(`^Swarm ${swarmId}: running`));
    assert.match(status, /Agent rules in the trunk: AGENTS\.md \(\d+ chars\)/);
    assert.match(status, /- agent-1 \(researcher\)/);
    assert.match(status, /call swarmboard_status again later/);
    const facts = await invoke("swarmboard_findings", { swarmId, kind: ["FACT"] });
    assert.match(facts, /FACT agent-1: agent-1: median lives in src\/stats\.js \(src\/stats\.js:9\)/);
    assert.ok(!facts.includes("OBSERVED"), facts);
    const byPath = await invoke("swarmboard_findings", { path: "README.md" });
    assert.match(byPath, /OBSERVED agent-\d: agent-\d: the README names the tests \(README\.md:1\)/);
    assert.ok(!byPath.includes("src/stats.js:9"), byPath);
    const byText = await invoke("swarmboard_findings", { text: "agent-2: MEDIAN", kind: ["FACT"] });
    assert.match(byText, /1 of \d+ board entries match kind FACT, text "agent-2: MEDIAN"/);
  });

  it("lists the repository's rules in the panel (photographed)", async () => {
    const state = await waitFor("the panel state to carry the rules", () => {
      const s = hooks.swarms.panelState();
      return s.swarm?.id === swarmId && s.swarm.rules ? s : undefined;
    });
    assert.deepEqual(
      state.swarm?.rules?.map((r) => r.replace(/\d+/, "N")),
      ["AGENTS.md (N chars)"],
    );
    if (vscode.env.uiKind !== vscode.UIKind.Web) return;
    await vscode.commands.executeCommand("notifications.clearAll");
    await vscode.commands.executeCommand("swarmboard.openPanel");
    await waitFor("the panel to be ready", () => hooks.panel()?.isReady);
    await new Promise((r) => setTimeout(r, 1000));
    await requestScreenshot("panel-agent-rules");
  });

  it("talks to the running swarm: a message and a task reach its board, a wrong question and a trigger are refused", async () => {
    const sent = await invoke("swarmboard_message_swarm", { swarmId, to: "agent-1", text: "read mean too" });
    const messageId = new RegExp(`^Message (\\S+) sent to agent-1 of swarm ${swarmId}: `).exec(sent)?.[1];
    assert.ok(messageId, sent);
    const added = await invoke("swarmboard_add_task", { text: "Add a test for the median of an empty list" });
    const taskId = new RegExp(`^Task (\\S+) added to swarm ${swarmId}'s board`).exec(added)?.[1];
    assert.ok(taskId, added);
    const board = () => hooks.swarms.store.swarm(swarmId)?.entries ?? [];
    await waitFor("the message and the task on the board", () =>
      board().some((e) => e.id === messageId && e.text === "read mean too") &&
      board().some((e) => e.kind === "OBSERVED" && e.scope.taskId === taskId)
        ? true
        : undefined,
    );
    assert.match(
      await invoke("swarmboard_answer_question", { questionId: "question-99", text: "yes" }),
      /^swarmboard_answer_question failed: question-99 is not an open question of swarm /,
    );
    assert.match(
      await invoke("swarmboard_send_trigger", { text: "TS2322 in src/stats.js" }),
      /^swarmboard_send_trigger failed: Refused \(not-standing\)/,
    );
    await assert.rejects(invoke("swarmboard_message_swarm", { text: "" }), /swarmboard_message_swarm: .*text/);
  });

  it("stops the swarm and says how it ended", async () => {
    const stop = await invoke("swarmboard_stop", { swarmId });
    assert.match(stop, new RegExp(`^Stopping swarm ${swarmId}`));
    await waitFor("the swarm to end", () => hooks.swarms.store.swarm(swarmId)?.status === "stopped", 300_000);
    const status = await invoke("swarmboard_status", {});
    assert.match(status, new RegExp(`^Swarm ${swarmId}: stopped`));
    assert.match(status, /It has ended/);
    assert.match(await invoke("swarmboard_stop", { swarmId }), /swarmboard_stop failed: Swarm \S+ is not running/);
  });
});
