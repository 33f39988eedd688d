// A person steers a running swarm from the terminal (real CLI process, the tiny ChatML test model, scripted turns): a line typed
// on stdin as "@agent-1 <text>" reaches agent-1 with its next tool result, a plain line reaches every running
// agent, and a message to an agent that is not in the swarm is refused with why, nothing posted.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { swarmEventSchema, type SwarmEvent } from "../../src/protocol/swarmEvents";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { removeDir } from "../unit/workspace/gitFixture";
import { makeSampleRepo, ofType, repoRoot, testRecipe, type SampleRepo } from "./swarmFixtures";

const cli = path.join(repoRoot(), "dist", "cli", "main.js");
// Twenty short reads: enough steps that agent-1 is still working when the messages are typed.
const files = ["src/stats.js", "README.md", "package.json", "test/stats.test.js"];
const reads = Array.from({ length: 20 }, (_, i) => ({
  path: files[i % files.length]!,
  startLine: 1 + (i % 3),
  endLine: 4,
}));

/** The events written so far; while the run goes on, a line still being written is left for the next read. */
function readEvents(file: string, whole = true): SwarmEvent[] {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, "utf8").split("\n");
  const done = whole ? lines : lines.slice(0, -1);
  return done.filter((line) => line.trim() !== "").map((line) => swarmEventSchema.parse(JSON.parse(line)));
}

describe("messages from the person to a running swarm (real CLI, stdin, tiny ChatML model)", function () {
  this.timeout(10 * 60_000);
  let repo: SampleRepo;
  let events: SwarmEvent[] = [];
  let stderr = "";
  let exitCode: number | null = null;

  before(async function () {
    assert.ok(existsSync(cli), `${cli} is missing: run npm run build first`);
    repo = makeSampleRepo();
    const recipeFile = path.join(repo.root, "recipe.json");
    writeFileSync(recipeFile, JSON.stringify(testRecipe(1)));
    const scriptFile = path.join(repo.root, "script.json");
    const agent1 = [
      ...reads.map((args) => ({ tool: "read_file", args })),
      { tool: "finish", args: { summary: "read what the person pointed at" } },
    ];
    writeFileSync(
      scriptFile,
      JSON.stringify({
        agents: { "agent-1": agent1, synthesist: [{ tool: "finish", args: { summary: "nothing to add" } }] },
      }),
    );
    const eventsFile = path.join(repo.root, "events.jsonl");
    const child = spawn(process.execPath, [
      cli,
      ...["run", "--no-server", "--goal", "Read the stats module", "--recipe", recipeFile, "--agents", "1"],
      ...["--model", sharedModelPath("tiny-random-qwen2-chatml.gguf"), "--workspace", repo.workspace, "--threads", "1"],
      ...["--kv-cells", "8192", "--state-dir", repo.stateDir, "--events", eventsFile, "--script", scriptFile],
      "--plain",
    ]);
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    const ended = new Promise<void>((resolve) => child.on("exit", (code) => resolve(void (exitCode = code))));
    // Type the messages once agent-1 has had its first tool result (before that the swarm is still starting).
    const deadline = Date.now() + 8 * 60_000;
    while (ofType(readEvents(eventsFile, false), "tool-result").length === 0) {
      assert.ok(Date.now() < deadline && exitCode === null, `agent-1 never got a tool result:\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    child.stdin.write("@agent-1 look at src/stats.js first\n@agent-7 are you there?\nwrap up when the tests pass\n");
    await ended;
    events = readEvents(eventsFile);
  });

  after(() => removeDir(repo.root));

  const userMessages = () =>
    ofType(events, "board-entry")
      .map((e) => e.entry)
      .filter((e) => e.kind === "MESSAGE" && e.author === "user");

  it("runs to the end with both messages on the board, from the user", () => {
    assert.equal(exitCode, 0, stderr);
    assert.deepEqual(
      userMessages().map((m) => [m.to, m.text]),
      [
        [{ agent: "agent-1" }, "look at src/stats.js first"],
        ["swarm", "wrap up when the tests pass"],
      ],
      stderr,
    );
    assert.match(stderr, /message user-1 sent to agent-1/);
    assert.match(stderr, /message user-2 sent to swarm/);
  });

  it("delivers the direct message to agent-1 once, when a tool call returns", () => {
    const direct = userMessages()[0]!;
    const deliveries = ofType(events, "message-delivered").filter((d) => d.messageId === direct.id);
    assert.deepEqual(
      deliveries.map((d) => [d.agentId, d.point]),
      [["agent-1", "tool-call-returned"]],
    );
  });

  it("delivers the swarm message to agent-1, the one agent running when it was sent", () => {
    const broadcast = userMessages()[1]!;
    const deliveries = ofType(events, "message-delivered").filter((d) => d.messageId === broadcast.id);
    assert.deepEqual(
      deliveries.map((d) => d.agentId),
      ["agent-1"],
    );
  });

  it("refuses a message to an agent that is not in the swarm, saying so, and posts nothing", () => {
    assert.match(stderr, /message not sent: Cannot message "agent-7": no such agent in the swarm/);
    assert.equal(userMessages().length, 2);
  });
});
