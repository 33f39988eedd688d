// Steering typed on `swarmboard run`'s stdin: "@agent-N text" for one agent, any other line for all, "/pause",
// "/resume", "/task" and "@answer"; blank lines do nothing, unclear ones say how to write them, and what was
// done or refused is said.
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { listenForSteering, parseSteeringLine, type SteeringTarget } from "../../../src/cli/stdinMessages";

describe("steering typed on the CLI's stdin", () => {
  it("addresses one agent with @id and every agent otherwise", () => {
    assert.deepEqual(parseSteeringLine("@agent-2  look at src/parse.ts first "), {
      kind: "message",
      to: "agent-2",
      text: "look at src/parse.ts first",
    });
    assert.deepEqual(parseSteeringLine("  stop adding tests, merge what passes"), {
      kind: "message",
      to: "swarm",
      text: "stop adding tests, merge what passes",
    });
  });

  it("reads /pause, /resume, /task and @answer", () => {
    assert.deepEqual(parseSteeringLine("/pause agent-2"), { kind: "pause", agentId: "agent-2", paused: true });
    assert.deepEqual(parseSteeringLine(" /resume  agent-2 "), { kind: "pause", agentId: "agent-2", paused: false });
    assert.deepEqual(parseSteeringLine("/task add a --json flag to the CLI"), {
      kind: "task",
      text: "add a --json flag to the CLI",
    });
    assert.deepEqual(parseSteeringLine("@answer question-3 yes, keep the old API"), {
      kind: "answer",
      questionId: "question-3",
      text: "yes, keep the old API",
    });
  });

  it("does nothing for a blank line and says how to write an unclear one", () => {
    assert.equal(parseSteeringLine("   "), undefined);
    for (const line of ["@agent-2", "@agent-2   ", "/pause", "/pause agent-1 agent-2", "/task", "/stop agent-1"]) {
      const parsed = parseSteeringLine(line);
      assert.equal(parsed?.kind, "unclear", line);
      assert.match(parsed?.kind === "unclear" ? parsed.why : "", /\/pause agent-N/, line);
    }
  });

  it("awaits a target that answers later (a run on the shared server) and says a refusal from it", async () => {
    const input = new PassThrough();
    const said: string[] = [];
    const target: SteeringTarget = {
      message: async () => ({ id: "user-1" }),
      pauseAgent: async (agentId) => {
        if (agentId === "agent-9") throw new Error("no such agent");
        return { changed: false };
      },
      addTask: async () => ({ id: "user-task-1" }),
      answer: async (questionId) => {
        if (questionId === "question-9") throw new Error("disconnected: The Swarmboard server closed.");
        return true;
      },
    };
    const stop = listenForSteering(input, target, (line) => said.push(line));
    input.write("/pause agent-1\n/pause agent-9\n@answer question-1 yes\n@answer question-9 no\n");
    await new Promise((resolve) => setTimeout(resolve, 50));
    stop();
    assert.deepEqual(said.sort(), [
      "agent-1 was already paused",
      "answer not sent: disconnected: The Swarmboard server closed.",
      "answer to question-1 sent",
      "not paused: no such agent",
    ]);
  });

  it("acts on each line as it comes and says what was done, refused or not understood", async () => {
    const input = new PassThrough();
    const done: string[] = [];
    const said: string[] = [];
    const target: SteeringTarget = {
      message: async (to, text) => {
        if (to === "agent-9") throw new Error('Cannot message "agent-9": no such agent in the swarm.');
        done.push(`${to}: ${text}`);
        return { id: `user-${done.length}` };
      },
      pauseAgent: (agentId, paused) => {
        if (agentId === "agent-9") throw new Error('Cannot pause "agent-9": no such agent is running in the swarm.');
        done.push(`${paused ? "pause" : "resume"} ${agentId}`);
        return { changed: true };
      },
      addTask: async (text) => {
        done.push(`task: ${text}`);
        return { id: "user-task-1" };
      },
      answer: (questionId, text) => {
        done.push(`answer ${questionId}: ${text}`);
        return questionId === "question-1";
      },
    };
    const stop = listenForSteering(input, target, (line) => said.push(line));
    input.write("@agent-1 read the failing test\n@agent-9 hello\nfinish soon\n@agent-1\n");
    input.write("/pause agent-1\n/pause agent-9\n/resume agent-1\n/task add tests for median\n");
    input.write("@answer question-1 yes\n@answer question-7 no\n");
    await new Promise((resolve) => setTimeout(resolve, 50));
    stop();
    assert.deepEqual(done, [
      "agent-1: read the failing test",
      "swarm: finish soon",
      "pause agent-1",
      "resume agent-1",
      "task: add tests for median",
      "answer question-1: yes",
      "answer question-7: no",
    ]);
    assert.deepEqual(said.sort(), [
      "agent-1 paused",
      "agent-1 resumed",
      "answer not sent: question-7 is not open (answered, timed out or withdrawn already)",
      "answer to question-1 sent",
      'message not sent: Cannot message "agent-9": no such agent in the swarm.',
      "message user-1 sent to agent-1",
      "message user-2 sent to swarm",
      'not paused: Cannot pause "agent-9": no such agent is running in the swarm.',
      `not understood: write "@agent-N text" for one agent, text for every agent, "/pause agent-N", "/resume agent-N", "/task text" or "@answer question-N text"`,
      "task user-task-1 added to the board",
    ]);
  });

  it("in a standing swarm, /trigger takes any trigger and a plain line is a message trigger for the router", async () => {
    assert.deepEqual(parseSteeringLine('/trigger {"source":"diagnostic","text":"TS2322"}'), {
      kind: "trigger",
      raw: { source: "diagnostic", text: "TS2322" },
    });
    const bad = parseSteeringLine("/trigger {not json");
    assert.match(bad?.kind === "unclear" ? bad.why : "", /needs one JSON trigger/);
    const input = new PassThrough();
    const taken: unknown[] = [];
    const said: string[] = [];
    const sent: string[] = [];
    const target: SteeringTarget = {
      message: async (to, text) => {
        sent.push(`${to}: ${text}`);
        return { id: "user-1" };
      },
      pauseAgent: () => ({ changed: true }),
      addTask: async () => ({ id: "user-task-1" }),
      answer: () => true,
      trigger: async (raw) => {
        if ((raw as { source?: string }).source === "nope") throw new Error("not a trigger: source: invalid");
        taken.push(raw);
        return { triggerId: `trigger-${taken.length}`, said: "sent to the router" };
      },
    };
    const stop = listenForSteering(input, target, (line) => said.push(line));
    input.write('what changed in parse?\n@agent-3 look at it\n/trigger {"source":"nope","text":"x"}\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    stop();
    assert.deepEqual(taken, [{ source: "message", text: "what changed in parse?" }]);
    assert.deepEqual(sent, ["agent-3: look at it"], "a message to one agent stays a message");
    assert.deepEqual(said.sort(), [
      "message user-1 sent to agent-3",
      "trigger not taken: not a trigger: source: invalid",
      "trigger trigger-1: sent to the router",
    ]);
  });
});
