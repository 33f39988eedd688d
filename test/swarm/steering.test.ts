// A person steers a running swarm from the terminal beyond messages (real CLI process, the tiny ChatML test model,
// scripted turns): both workers ask a question (ask_user) and wait; agent-2 is paused with "/pause agent-2" and stops
// taking steps after its answer while agent-1 goes on, keeping its cells, claim and worktree, until "/resume
// agent-2"; a task added with "/task" lands on the board and reaches agent-1, which claims it by its id; agent-1's
// second question gets no answer and times out, and the agent is told so and goes on.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { swarmEventSchema, type SwarmEvent } from "../../src/protocol/swarmEvents";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { removeDir } from "../unit/workspace/gitFixture";
import { git, makeSampleRepo, ofType, repoRoot, testRecipe, type SampleRepo } from "./swarmFixtures";

const cli = path.join(repoRoot(), "dist", "cli", "main.js");
/** Long enough for the test to answer the first questions on a busy machine; the third one waits it out. */
const askUserTimeoutSeconds = 30;
const read = (p: string) => ({ tool: "read_file", args: { path: p, startLine: 1, endLine: 4 } });

const script = {
  agents: {
    "agent-1": [
      { tool: "ask_user", args: { question: "Should median skip NaN values?" } },
      { tool: "claim", args: { scope: { taskId: "user-task-1" }, text: "the task the person added" } },
      read("src/stats.js"),
      read("README.md"),
      read("package.json"),
      { tool: "ask_user", args: { question: "Is one test for the empty list enough?" } },
      read("test/stats.test.js"),
      { tool: "finish", args: { summary: "did the person's task" } },
    ],
    "agent-2": [
      { tool: "claim", args: { scope: { paths: ["src/stats.js"] }, text: "median" } },
      { tool: "ask_user", args: { question: "May I change the median's signature?" } },
      read("src/stats.js"),
      read("test/stats.test.js"),
      { tool: "finish", args: { summary: "read median" } },
    ],
    synthesist: [{ tool: "finish", args: { summary: "nothing to add" } }],
  },
};

/** The events written so far; while the run goes on, a line still being written is left for the next read. */
function readEvents(file: string, whole = true): SwarmEvent[] {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, "utf8").split("\n");
  const done = whole ? lines : lines.slice(0, -1);
  return done.filter((line) => line.trim() !== "").map((line) => swarmEventSchema.parse(JSON.parse(line)));
}

describe("steering a running swarm: pause/resume, add a task, ask_user (real CLI, stdin, tiny ChatML model)", function () {
  this.timeout(10 * 60_000);
  let repo: SampleRepo;
  let events: SwarmEvent[] = [];
  let stderr = "";
  let exitCode: number | null = null;
  /** What was true while agent-2 was paused, read at the moment agent-1's last question timed out. */
  let whilePaused: { worktrees: string; releasedByAgent2: number; agent2Cells: number | undefined };

  before(async function () {
    assert.ok(existsSync(cli), `${cli} is missing: run npm run build first`);
    repo = makeSampleRepo();
    const recipe = testRecipe(2);
    const recipeFile = path.join(repo.root, "recipe.json");
    const roles = recipe.roles.map((r) => (r.name === "worker" ? { ...r, tools: [...r.tools, "ask_user"] } : r));
    writeFileSync(recipeFile, JSON.stringify({ ...recipe, roles }));
    const scriptFile = path.join(repo.root, "script.json");
    writeFileSync(scriptFile, JSON.stringify(script));
    const eventsFile = path.join(repo.root, "events.jsonl");
    const child = spawn(process.execPath, [
      cli,
      ...["run", "--no-server", "--goal", "Fix the stats module", "--recipe", recipeFile, "--agents", "2"],
      ...["--model", sharedModelPath("tiny-random-qwen2-chatml.gguf"), "--workspace", repo.workspace, "--threads", "1"],
      ...["--kv-cells", "8192", "--state-dir", repo.stateDir, "--events", eventsFile, "--script", scriptFile],
      ...["--ask-user-timeout", String(askUserTimeoutSeconds), "--plain"],
    ]);
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    const ended = new Promise<void>((resolve) => child.on("exit", (code) => resolve(void (exitCode = code))));
    const deadline = Date.now() + 8 * 60_000;
    const until = async <T>(what: string, probe: (now: SwarmEvent[]) => T | undefined): Promise<T> => {
      for (;;) {
        const found = probe(readEvents(eventsFile, false));
        if (found !== undefined) return found;
        assert.ok(Date.now() < deadline && exitCode === null, `gave up waiting for ${what}:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const question =
      (agentId: string, nth = 0) =>
      (now: SwarmEvent[]) =>
        ofType(now, "user-question").filter((q) => q.agentId === agentId)[nth];

    const asked2 = await until("agent-2's question", question("agent-2"));
    const asked1 = await until("agent-1's question", question("agent-1"));
    child.stdin.write("/pause agent-2\n/task Add a test for the median of an empty list\n");
    await until("the pause and the task to be taken", () =>
      /agent-2 paused/.test(stderr) && /task user-task-1 added/.test(stderr) ? true : undefined,
    );
    child.stdin.write(`@answer ${asked2.questionId} yes, if the tests still pass\n`);
    await until("agent-2 to wait paused", (now) =>
      ofType(now, "agent-state").find((s) => s.agentId === "agent-2" && s.state === "paused"),
    );
    child.stdin.write(`@answer ${asked1.questionId} yes, skip NaN\n`);
    const last = await until("agent-1's second question to time out", (now) => {
      const second = question("agent-1", 1)(now);
      const ends = ofType(now, "user-question-ended");
      return second && ends.some((e) => e.questionId === second.questionId) ? now : undefined;
    });
    const stats = ofType(last, "kv-stats").at(-1)?.stats;
    whilePaused = {
      worktrees: git(repo.workspace, "worktree", "list"),
      releasedByAgent2: last.filter(
        (e) => e.type === "board-entry" && e.entry.kind === "RELEASE" && e.entry.author === "agent-2",
      ).length,
      agent2Cells: stats?.agents.find((a) => a.agentId === "agent-2")?.privateCells,
    };
    child.stdin.write("/resume agent-2\n");
    await ended;
    events = readEvents(eventsFile);
  });

  after(() => removeDir(repo.root));

  const states = (agentId: string) => ofType(events, "agent-state").filter((s) => s.agentId === agentId);
  const results = (agentId: string) => ofType(events, "tool-result").filter((r) => r.agentId === agentId);
  const calls = (agentId: string) => ofType(events, "tool-call").filter((c) => c.agentId === agentId);

  it("runs to the end, both workers finished", () => {
    assert.equal(exitCode, 0, stderr);
    for (const id of ["agent-1", "agent-2"])
      assert.equal(states(id).at(-1)?.state, "done", `${id}: ${JSON.stringify(states(id).at(-1))}`);
  });

  it("brings a question's answer to the agent that asked, as its tool result", () => {
    const answered = ofType(events, "user-question-ended").filter((e) => e.outcome === "answered");
    assert.deepEqual(
      answered.map((e) => [e.agentId, e.answer]).sort(),
      [
        ["agent-1", "yes, skip NaN"],
        ["agent-2", "yes, if the tests still pass"],
      ],
      stderr,
    );
    const result = results("agent-1")[0]!;
    assert.equal(result.ok, true);
    assert.match(result.summary, /the person answered question-\d: yes, skip NaN/);
  });

  it("tells the agent when nobody answered in time, and it goes on", () => {
    const second = ofType(events, "user-question").filter((q) => q.agentId === "agent-1")[1]!;
    assert.equal(second.question, "Is one test for the empty list enough?");
    assert.equal(second.timeoutMs, askUserTimeoutSeconds * 1000);
    const end = ofType(events, "user-question-ended").find((e) => e.questionId === second.questionId)!;
    assert.equal(end.outcome, "timed-out");
    assert.ok(end.time - second.time >= askUserTimeoutSeconds * 1000 - 50, "it waited the whole timeout");
    const result = results("agent-1")[5]!;
    assert.equal(result.ok, true);
    assert.match(result.summary, new RegExp(`No answer within ${askUserTimeoutSeconds} s: go on with your best`));
    assert.equal(calls("agent-1").at(-1)?.tool, "finish", "agent-1 went on to its next calls");
  });

  it("holds a paused agent between steps while the other goes on, keeping its cells, claim and worktree", () => {
    const paused = states("agent-2").find((s) => s.state === "paused")!;
    assert.equal(paused.reason, "paused by the user");
    const resumed = states("agent-2").find((s) => s.time >= paused.time && s !== paused)!;
    assert.notEqual(resumed.state, "paused");
    const during = (list: readonly SwarmEvent[]) => list.filter((e) => e.time > paused.time && e.time < resumed.time);
    assert.equal(during(calls("agent-2")).length, 0, "agent-2 made no call while paused");
    assert.ok(during(calls("agent-1")).length >= 4, "agent-1 went on meanwhile");
    assert.ok((whilePaused.agent2Cells ?? 0) > 0, `agent-2 kept its private cells: ${whilePaused.agent2Cells}`);
    assert.equal(whilePaused.releasedByAgent2, 0, "agent-2 kept its claim");
    assert.match(whilePaused.worktrees, /agent-2/, "agent-2's worktree stayed");
    // After the resume it went on from where it was: its next calls are its script's next ones.
    assert.deepEqual(
      calls("agent-2").map((c) => c.tool),
      ["claim", "ask_user", "read_file", "read_file", "finish"],
    );
  });

  it("puts an added task on the board, tells the running agent, and lets it claim the task by its id", () => {
    const entries = ofType(events, "board-entry").map((e) => e.entry);
    const record = entries.find((e) => e.author === "user" && e.kind === "OBSERVED");
    assert.equal(record?.scope.taskId, "user-task-1");
    assert.equal(record?.text, "Task added by the person: Add a test for the median of an empty list");
    const message = entries.find((e) => e.author === "user" && e.kind === "MESSAGE");
    assert.equal(message?.to, "swarm");
    assert.match(message?.text ?? "", /^New open task \[user-task-1\]: Add a test for the median of an empty list/);
    const delivered = ofType(events, "message-delivered").filter((d) => d.messageId === message?.id);
    assert.ok(
      delivered.some((d) => d.agentId === "agent-1"),
      `delivered to: ${delivered.map((d) => d.agentId)}`,
    );
    const claim = entries.find((e) => e.kind === "CLAIM" && e.author === "agent-1");
    assert.equal(claim?.scope.taskId, "user-task-1", "agent-1 claimed the added task");
  });
});
