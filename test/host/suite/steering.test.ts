// Steering a running swarm in the real host (scripted agent on stories260K, a fresh git repository of the sample
// project): "Message Agent…" on agent-1's tree node (its input box answered as a user would) and a message typed in
// the panel's Steer box reach agent-1 when its current tool call returns; "Add Task…" on the swarm node and "Add as
// task" in the panel put tasks on the board; agent-1's ask_user question shows as a notification and in the panel
// (photographed with the message box), and the answer typed after "Answer…" reaches the agent; its second question
// gets no answer and times out, and the agent is told so; agent-1 is paused and resumed from its tree node.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import type { SwarmboardTestHooks } from "../../../src/host/testHooks";
import type { SwarmsNode } from "../../../src/host/tree/swarmsNodes";
import { swarmEventSchema, type SwarmEvent } from "../../../src/protocol/swarmEvents";
import type { TurnScript } from "../../../src/protocol/turnScript";
import { requestScreenshot, typeInPanel } from "./automationMarkers";
import { noSwarmRunning, swarmboard, waitFor } from "./hostApi";
import { modelPath, sampleRepo } from "./reviewSwarmRun";

const timeoutSeconds = 40;
const panelMessage = "panel: check the tests too";
const read = (p: string) => ({ tool: "read_file", args: { path: p, startLine: 1, endLine: 3 } });
const script: TurnScript = {
  agents: {
    "agent-1": [
      { tool: "ask_user", args: { question: "Which file should I read first?" } },
      read("src/stats.js"),
      { tool: "ask_user", args: { question: "Shall I keep the old API?" } },
      read("package.json"),
      { tool: "finish", args: { summary: "read what the person pointed at" } },
    ],
    synthesist: [{ tool: "finish", args: { summary: "nothing to add" } }],
  },
};
const recipe = {
  name: "steer",
  description: "One reader that may ask the person; a synthesist.",
  roles: [
    {
      name: "worker",
      count: 1,
      tools: ["list_dir", "read_file", "grep_board", "post_finding", "claim", "release", "ask_user"],
      instructions: "Read, ask when unsure.",
    },
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
  budgets: { wallClockMs: 10 * 60_000, tokensPerAgent: 100_000, kvCells: 32_768, steps: 40 },
  taskSources: ["goal"],
};

type Step = NonNullable<ReturnType<SwarmboardTestHooks["swarms"]["launchStep"]>>;

/** Waits for the input box whose title has `marker`, types `text` into it and presses Enter until it is gone. */
async function typeInto(hooks: SwarmboardTestHooks, marker: string, text: string): Promise<Step> {
  const box = await waitFor(`the input box "${marker}"`, () => {
    const step = hooks.swarms.launchStep();
    return step?.title?.includes(marker) && !("items" in step) ? step : undefined;
  });
  const deadline = Date.now() + 20_000;
  while (hooks.swarms.launchStep() === box) {
    assert.ok(Date.now() < deadline, `the input box "${marker}" did not accept its text`);
    box.value = text;
    await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
    await new Promise((r) => setTimeout(r, 200));
  }
  return box;
}

function traceOf(stateDir: string): SwarmEvent[] {
  const file = path.join(stateDir, "events.jsonl");
  assert.ok(existsSync(file), `the swarm's trace ${file} is missing`);
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => swarmEventSchema.parse(JSON.parse(l)));
}

describe("steering a running swarm from the tree, the panel and notifications", function () {
  this.timeout(300_000);
  let hooks: SwarmboardTestHooks;
  let swarmId: string;
  let stateDir: string;
  const view = () => hooks.swarms.store.swarm(swarmId);
  const lane = () => view()?.agents.find((a) => a.id === "agent-1")?.lane ?? [];
  const nodes = () => {
    const swarm = hooks.swarmsView.roots().find((n) => n.kind === "swarm" && n.swarmId === swarmId);
    assert.ok(swarm, "the swarm's node is in the tree");
    return { swarm, agent: hooks.swarms.children(swarm).find((n) => n.agentId === "agent-1") };
  };
  /** Lets the question's notification stay on screen until the picture is taken, then picks "Answer…". */
  let releaseNotice: () => void = () => undefined;

  before(async function () {
    hooks = (await swarmboard()).hooks;
    await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready", 60_000);
    await noSwarmRunning(hooks);
    const { root, repo } = sampleRepo("steer");
    stateDir = path.join(root, "state");
    mkdirSync(stateDir);
    const recipeFile = path.join(root, "steer-recipe.json");
    writeFileSync(recipeFile, JSON.stringify(recipe));
    const screenshotTaken = new Promise<void>((resolve) => (releaseNotice = resolve));
    hooks.swarms.notices.answerNext(async () => {
      await screenshotTaken;
      return "Answer…";
    });
    swarmId = await hooks.reviewSurfaces.swarms.start({
      goal: "Read the stats module",
      recipe: recipeFile,
      modelPath: modelPath(),
      workspace: repo,
      stateDir,
      threads: 2,
      policy: { allow: [], ask: [], deny: [] },
      askUserTimeoutSeconds: timeoutSeconds,
      script,
    });
  });

  it("sends Message Agent… from agent-1's node and Add Task… from the swarm's node while agent-1 asks", async () => {
    const asked = await waitFor("agent-1's first question", () => view()?.questions[0], 120_000);
    assert.equal(asked.question, "Which file should I read first?");
    const { agent, swarm } = nodes();
    assert.ok(agent, "agent-1 is in the tree");
    assert.match(agent.contextValue ?? "", /^agent-live/);
    const sending = vscode.commands.executeCommand<{ messageId: string; to: string }>("swarmboard.messageAgent", agent);
    await typeInto(hooks, "message agent-1", "look at src/stats.js first");
    const sent = await sending;
    assert.equal(sent?.to, "agent-1");
    assert.equal(hooks.swarms.receipts().at(-1), "Swarmboard: sent to agent-1; read when its current call returns");
    const adding = vscode.commands.executeCommand<{ taskId: string }>("swarmboard.addTask", swarm);
    await typeInto(hooks, "add a task", "Add a test for the median of an empty list");
    assert.equal((await adding)?.taskId, "user-task-1");
    assert.match(hooks.swarms.receipts().at(-1) ?? "", /^Swarmboard: task user-task-1 added; a free agent claims it$/);
    // The receipt is a status bar message: the picture shows it where the person would see it.
    if (vscode.env.uiKind === vscode.UIKind.Web) await requestScreenshot("steering-receipt");
    const record = await waitFor("the task on the board", () =>
      view()?.entries.find((e) => e.author === "user" && e.kind === "OBSERVED"),
    );
    assert.equal(record.scope.taskId, "user-task-1");
    assert.match(nodes().swarm.description ?? "", /1 asking you/);
  });

  it("shows the question as a notification and in the panel, beside the message box (screenshot)", async () => {
    const notice = await waitFor("the question's notification", () =>
      hooks.swarms.notices.recent().find((n) => n.text.includes("Which file should I read first?")),
    );
    assert.match(notice.text, /agent-1 .* asks: "Which file should I read first\?" Without an answer within 40 s/);
    assert.deepEqual(notice.actions, ["Answer…", "Open Panel"]);
    await vscode.commands.executeCommand("swarmboard.openPanel");
    const panel = await waitFor("the panel to be ready", () => hooks.panel()?.isReady && hooks.panel(), 30_000);
    const questionId = view()!.questions[0]!.questionId;
    let facts = (await panel.probe("steer-0")).dom;
    for (let n = 1; !facts?.questionIds?.includes(questionId); n++) {
      assert.ok(n < 100, `the panel never showed ${questionId}: ${JSON.stringify(facts)}`);
      await new Promise((r) => setTimeout(r, 200));
      facts = (await panel.probe(`steer-${n}`)).dom;
    }
    assert.deepEqual(facts.recipients, ["swarm", "agent-1"]);
    assert.deepEqual(facts.addedTasks, [
      {
        id: "user-task-1",
        text: "user-task-1open: waiting for a free agentAdd a test for the median of an empty list",
      },
    ]);
    if (vscode.env.uiKind === vscode.UIKind.Web) {
      // Not an assertion: lets the notification finish sliding in so the picture shows it whole.
      await new Promise((r) => setTimeout(r, 1500));
      await requestScreenshot("steering-panel");
    }
  });

  it("sends what is typed in the panel's Steer box: a message to agent-1, then a task", async function () {
    // Typing into the page needs the runner's browser (code-server); a desktop run covers the tree's commands only.
    if (vscode.env.uiKind !== vscode.UIKind.Web) this.skip();
    await typeInPanel({
      name: "steer-message",
      select: { label: "Send to", value: "agent-1" },
      fill: { label: "Message to the swarm", text: panelMessage },
      click: "Send",
    });
    const entry = await waitFor("the panel's message on the board", () =>
      view()?.entries.find((e) => e.kind === "MESSAGE" && e.text === panelMessage),
    );
    assert.deepEqual([entry.author, entry.to], ["user", { agent: "agent-1" }]);
    await typeInPanel({
      name: "steer-task",
      fill: { label: "Message to the swarm", text: "Document median" },
      click: "Add as task",
    });
    const task = await waitFor("the panel's task on the board", () =>
      view()?.entries.find((e) => e.kind === "OBSERVED" && e.scope.taskId === "user-task-2"),
    );
    assert.equal(task.text, "Task added by the person: Document median");
  });

  it("brings the answer typed after Answer… to agent-1, with the message at the same tool return", async () => {
    releaseNotice();
    await typeInto(hooks, "agent-1 asks", "Start with src/stats.js");
    const result = await waitFor(
      "agent-1's result for its question",
      () => lane().find((i) => i.kind === "result" && i.text.includes("the person answered")),
      60_000,
    );
    assert.match(result.text, /the person answered question-1: Start with src\/stats\.js/);
    assert.equal(result.ok, true);
  });

  it("pauses agent-1 from its node after its second question times out, and resumes it", async () => {
    await waitFor(
      "agent-1's second question",
      () => view()?.questions[0]?.question === "Shall I keep the old API?",
      120_000,
    );
    const paused = await vscode.commands.executeCommand<{ paused: boolean; changed: boolean }>(
      "swarmboard.pauseAgent",
      nodes().agent,
    );
    assert.deepEqual(paused, { agentId: "agent-1", paused: true, changed: true });
    assert.match(hooks.swarms.receipts().at(-1) ?? "", /^Swarmboard: agent-1 pauses after its current step$/);
    const timedOut = await waitFor(
      "the second question to time out",
      () => lane().find((i) => i.kind === "result" && i.text.includes("No answer within")),
      (timeoutSeconds + 60) * 1000,
    );
    assert.match(timedOut.text, new RegExp(`No answer within ${timeoutSeconds} s: go on with your best judgement`));
    const pausedNode = await waitFor("agent-1 to show paused in the tree", () => {
      const node: SwarmsNode | undefined = nodes().agent;
      return node?.contextValue?.startsWith("agent-live-paused") ? node : undefined;
    });
    assert.match(pausedNode.description ?? "", /^paused/);
    const resumed = await vscode.commands.executeCommand("swarmboard.resumeAgent", pausedNode);
    assert.deepEqual(resumed, { agentId: "agent-1", paused: false, changed: true });
    assert.equal(hooks.swarms.receipts().at(-1), "Swarmboard: agent-1 resumed");
    await waitFor("the swarm to end", () => view()?.status === "completed" && view(), 120_000);
  });

  it("recorded the message's delivery when agent-1's tool call returned, and both questions' ends", () => {
    const events = traceOf(stateDir);
    const message = events.find(
      (e) => e.type === "board-entry" && e.entry.kind === "MESSAGE" && e.entry.text === "look at src/stats.js first",
    );
    assert.ok(message?.type === "board-entry", "the message is on the board");
    const deliveries = (text: string) => {
      const posted = events.find(
        (e) => e.type === "board-entry" && e.entry.kind === "MESSAGE" && e.entry.text === text,
      );
      const id = posted?.type === "board-entry" ? posted.entry.id : "(not posted)";
      return events.flatMap((e) =>
        e.type === "message-delivered" && e.messageId === id ? [[e.agentId, e.point]] : [],
      );
    };
    assert.deepEqual(deliveries("look at src/stats.js first"), [["agent-1", "tool-call-returned"]]);
    if (vscode.env.uiKind === vscode.UIKind.Web)
      assert.deepEqual(deliveries(panelMessage), [["agent-1", "tool-call-returned"]], "typed in the panel");
    const ends = events.filter((e) => e.type === "user-question-ended");
    assert.deepEqual(
      ends.map((e) => (e.type === "user-question-ended" ? e.outcome : "")),
      ["answered", "timed-out"],
    );
    const states = events
      .filter((e) => e.type === "agent-state" && e.agentId === "agent-1")
      .map((e) => (e.type === "agent-state" ? e.state : ""));
    assert.ok(states.includes("paused"), `agent-1's states: ${states.join(", ")}`);
    assert.equal(states.at(-1), "done");
  });
});
