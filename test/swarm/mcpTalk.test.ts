// Another agent talks to a running swarm over MCP (the SDK's own client against `swarmboard mcp` over stdio, the
// tiny ChatML model, forced turns): agent-1 asks a question (ask_user) and gets the client's answer_question as its
// tool result; a message_swarm to agent-2 (waiting on its own question) is delivered at its next tool return; an
// add_task lands on the board; a trigger to a swarm that is not standing is refused with why. Then a standing swarm
// (recipe watch) takes a send_trigger, and its router (agent-1) decides it: the decision is in its trigger log.
// Needs `npm run build`.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { swarmEventSchema, type SwarmEvent } from "../../src/protocol/swarmEvents";
import { triggerLogLineSchema, type TriggerLogLine } from "../../src/protocol/triggers";
import type { TurnScript } from "../../src/protocol/turnScript";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { removeDir } from "../unit/workspace/gitFixture";
import { makeSampleRepo, ofType, repoRoot, testRecipe, type SampleRepo } from "./swarmFixtures";

const cli = path.join(repoRoot(), "dist/cli/main.js");
type ToolResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };
const textOf = (r: unknown) => (r as ToolResult).content.map((c) => c.text ?? "").join("");
const busy = (n: number) => Array.from({ length: n }, () => ({ tool: "grep_board", args: { kind: "FACT" } }));

/** Lines of a JSONL file written so far (a line still being written is left for the next read). */
function jsonLines<T>(file: string, parse: (value: unknown) => T): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .slice(0, -1)
    .filter((l) => l.trim() !== "")
    .map((l) => parse(JSON.parse(l)));
}

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, limitMs = 300_000) {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** A `swarmboard mcp` server for `repo` with `script`, and an SDK client connected to it. */
async function connect(repo: SampleRepo, script: TurnScript, extra: string[] = []) {
  const scriptFile = path.join(repo.root, `script-${Date.now()}.json`);
  writeFileSync(scriptFile, JSON.stringify(script));
  const args = [
    cli,
    "mcp",
    "--no-server",
    "--model",
    sharedModelPath("tiny-random-qwen2-chatml.gguf"),
    "--workspace",
    repo.workspace,
  ];
  args.push("--threads", "1", "--kv-cells", "16384", "--script", scriptFile, "--state-root", repo.stateDir, ...extra);
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: "pipe" });
  const log = { stderr: "" };
  transport.stderr?.on("data", (chunk: Buffer) => (log.stderr += chunk.toString()));
  const client = new Client({ name: "swarmboard-talk-test", version: "0.0.0" });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    return { error: result.isError === true, text: textOf(result) };
  };
  const launch = async (args: Record<string, unknown>) => {
    const launched = await call("swarmboard_launch", args);
    assert.ok(!launched.error, launched.text);
    const swarmId = /Launched swarm (\S+) /.exec(launched.text)?.[1] ?? "";
    const stateDir = /State \(board, events, report\): (.+)$/m.exec(launched.text)?.[1] ?? "";
    assert.ok(swarmId && stateDir, launched.text);
    return { swarmId, stateDir };
  };
  const stop = async (swarmId: string) => {
    assert.ok(!(await call("swarmboard_stop", { swarmId })).error);
    await waitFor("the swarm to end", async () =>
      /It has ended/.test((await call("swarmboard_status", { swarmId })).text) ? true : undefined,
    );
  };
  return { client, log, call, launch, stop };
}

describe("talking to a running swarm over MCP (the SDK's client, swarmboard mcp, tiny ChatML model)", function () {
  this.timeout(10 * 60_000);
  let repo: SampleRepo;

  before(() => {
    assert.ok(existsSync(cli), `${cli} is missing: run \`npm run build\` first`);
    repo = makeSampleRepo();
  });
  after(() => removeDir(repo.root));

  it("lists the talk tools, and a message, a task and an answer reach the running swarm", async () => {
    const recipe = testRecipe(2);
    const roles = recipe.roles.map((r) => (r.name === "worker" ? { ...r, tools: [...r.tools, "ask_user"] } : r));
    const recipeFile = path.join(repo.root, "talk-recipe.json");
    writeFileSync(recipeFile, JSON.stringify({ ...recipe, roles, budgets: { ...recipe.budgets, steps: 400 } }));
    const script: TurnScript = {
      agents: {
        "agent-1": [{ tool: "ask_user", args: { question: "Should median skip NaN values?" } }, ...busy(300)],
        "agent-2": [{ tool: "ask_user", args: { question: "May I change mean too?" } }, ...busy(300)],
        synthesist: [{ tool: "finish", args: { summary: "stopped early" } }],
      },
    };
    const mcp = await connect(repo, script, ["--ask-user-timeout", "300"]);
    try {
      const { tools } = await mcp.client.listTools();
      const names = tools.map((t) => t.name);
      for (const name of ["message_swarm", "add_task", "answer_question", "send_trigger"])
        assert.ok(names.includes(name), `${name} in ${names.join(", ")}`);
      const bad = await mcp.call("add_task", { text: "   " });
      assert.ok(bad.error && /text/.test(bad.text), bad.text);

      const { swarmId, stateDir } = await mcp.launch({ goal: "Fix the stats module", recipe: recipeFile, agents: 2 });
      const events = path.join(stateDir, "events.jsonl");
      const read = () => jsonLines(events, (v) => swarmEventSchema.parse(v));
      // Both agents wait on their questions, so both are in the swarm when the message and the task arrive.
      const status = await waitFor("both agents' questions in the status", async () => {
        const text = (await mcp.call("swarmboard_status", { swarmId })).text;
        const first = /Open question (\S+) from agent-1: Should median skip NaN values\?/.exec(text);
        const second = /Open question (\S+) from agent-2: May I change mean too\?/.exec(text);
        return first && second ? [first[1]!, second[1]!] : undefined;
      });
      const [questionId, question2] = status;

      const message = await mcp.call("message_swarm", { swarmId, to: "agent-2", text: "look at mean too" });
      assert.ok(!message.error, message.text);
      const messageId = /^Message (\S+) sent to agent-2 of swarm /.exec(message.text)?.[1];
      assert.ok(messageId, message.text);
      const task = await mcp.call("add_task", { text: "Add a test for the median of an empty list" });
      assert.ok(!task.error, task.text);
      const taskId = /^Task (\S+) added to swarm /.exec(task.text)?.[1];
      assert.ok(taskId, task.text);
      const answer = await mcp.call("answer_question", { questionId, text: "yes, skip NaN" });
      assert.equal(answer.text, `Answered ${questionId}: agent-1 reads it as its ask_user result.`);
      const answer2 = await mcp.call("answer_question", { questionId: question2, text: "yes" });
      assert.ok(!answer2.error, answer2.text);
      const again = await mcp.call("answer_question", { questionId, text: "no" });
      assert.ok(again.error && /is not an open question/.test(again.text), again.text);
      const trigger = await mcp.call("send_trigger", { text: "TS2322 in src/stats.js" });
      assert.ok(trigger.error, trigger.text);
      assert.match(trigger.text, /^Refused \(not-standing\): No standing swarm .* \(swarmboard watch\)\.$/);

      const has = (test: (e: SwarmEvent[]) => boolean) => () => (test(read()) ? read() : undefined);
      await waitFor(
        "the answer and the message to reach their agents",
        has(
          (e) =>
            ofType(e, "message-delivered").some((d) => d.messageId === messageId && d.agentId === "agent-2") &&
            ofType(e, "tool-result").some((r) => r.agentId === "agent-1" && /answered/.test(r.summary)),
        ),
      );
      const seen = read();
      const ended = ofType(seen, "user-question-ended").find((q) => q.questionId === questionId);
      assert.deepEqual([ended?.outcome, ended?.answer], ["answered", "yes, skip NaN"]);
      const first = ofType(seen, "tool-result").find((r) => r.agentId === "agent-1");
      assert.match(first?.summary ?? "", new RegExp(`the person answered ${questionId}: yes, skip NaN`));
      const board = ofType(seen, "board-entry").map((b) => b.entry);
      const added = board.find((b) => b.author === "user" && b.kind === "OBSERVED" && b.scope.taskId === taskId);
      assert.equal(added?.text, "Task added by the person: Add a test for the median of an empty list");
      const findings = await mcp.call("swarmboard_findings", { swarmId, kind: ["MESSAGE"] });
      assert.match(findings.text, /look at mean too/);
      await mcp.stop(swarmId);
    } finally {
      await mcp.client.close();
    }
  });

  it("sends a trigger over MCP to a standing swarm, and its router decides it", async () => {
    const triggerId = "mcp-trigger-1";
    const script: TurnScript = {
      agents: {
        "agent-1": [
          { tool: "wait_for_triggers", args: {} },
          { tool: "reply_to_person", args: { trigger: triggerId, text: "median already skips nothing; no work" } },
          { tool: "wait_for_triggers", args: {} },
        ],
      },
    };
    const mcp = await connect(repo, script);
    try {
      const { swarmId, stateDir } = await mcp.launch({ goal: "Watch the stats module", recipe: "watch" });
      const sent = await mcp.call("send_trigger", {
        swarmId,
        id: triggerId,
        text: "Does median handle an empty list?",
      });
      assert.equal(
        sent.text,
        `Trigger ${triggerId} taken by standing swarm ${swarmId}: the router decides who takes it.`,
      );
      const log = path.join(stateDir, "triggers.jsonl");
      const decision = await waitFor("the router's decision", () =>
        jsonLines(log, (v) => triggerLogLineSchema.parse(v)).find(
          (l): l is Extract<TriggerLogLine, { kind: "decision" }> => l.kind === "decision" && l.triggerId === triggerId,
        ),
      );
      assert.equal(decision.by, "agent-1");
      assert.deepEqual(decision.decision, { action: "reply", text: "median already skips nothing; no work" });
      const duplicate = await mcp.call("send_trigger", { swarmId, id: triggerId, text: "again" });
      assert.match(duplicate.text, /\(seen before: nothing new happened\)/);
      await mcp.stop(swarmId);
      assert.ok(!/TypeError/.test(mcp.log.stderr), mcp.log.stderr);
    } finally {
      await mcp.client.close();
    }
  });
});
