// A past swarm read back from its state dir (history/events) and folded into the view the tree shows: the trace's
// start, agents and end, the board's entries, the registry's outcome over them (a killed run has no end). A running
// swarm's trace is read only up to its mark (where it stood when a client began to follow it).
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pastSwarmView } from "../../../src/host/swarm/pastSwarmView";
import type { PastSwarm } from "../../../src/protocol/swarmHistoryRpc";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";
import { EventsTrace } from "../../../src/worker/eventsTrace";
import { pastSwarmEvents } from "../../../src/worker/pastSwarmEvents";

const swarmId = "e2e-20261201-120000-abcd";
const model = {
  path: "/m/stories260K.gguf",
  architecture: "llama",
  layers: 5,
  heads: 8,
  kvHeads: 4,
  keyHeadDim: 8,
  valueHeadDim: 8,
  kvType: "F16",
  kvBytesPerCell: 640,
  trainContextSize: 512,
  vocabularySize: 512,
};

function stateDir(trace: string[], board: string[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "past-events-"));
  writeFileSync(path.join(dir, "events.jsonl"), trace.join("\n"));
  writeFileSync(path.join(dir, "board.jsonl"), board.map((l) => `${l}\n`).join(""));
  return dir;
}

const started = {
  swarmId,
  time: 1,
  type: "swarm-started",
  goal: "g",
  recipe: "e2e",
  mode: "shared-cells",
  model,
  trunkTokens: 10,
};
const added = { swarmId, time: 2, type: "agent-added", agent: { id: "agent-1", role: "worker", branch: "b1" } };
const text = { swarmId, time: 3, type: "agent-text", agentId: "agent-1", text: "x".repeat(1000), tokens: 9 };
const fact = {
  id: "e1",
  kind: "FACT",
  author: "agent-1",
  time: 4,
  scope: { paths: [] },
  text: "mean throws",
  refs: [{ path: "src/stats.js", line: 4 }],
};

function past(outcome: PastSwarm["outcome"]): PastSwarm {
  return {
    swarmId,
    goal: "g",
    recipe: "e2e",
    outcome,
    reason: outcome === "interrupted" ? "its process 42 is gone" : "",
    launchedBy: "cli",
    createdAt: 1,
    stateDir: "/s",
    stateDirExists: true,
    integrationBranch: `swarmboard/${swarmId}/main`,
    branches: [],
    findings: 1,
  };
}

describe("past swarm events (history/events) and the view folded from them", () => {
  it("keeps the start, agents and board entries, leaves the bulk out and reports a torn trace line", async () => {
    const dir = stateDir(
      [
        JSON.stringify(started),
        JSON.stringify(added),
        JSON.stringify(text),
        JSON.stringify({ ...text, time: 5, tokens: 4 }),
        '{"type":"agent-state","swarmId',
      ],
      [JSON.stringify(fact)],
    );
    const { events, problems } = await pastSwarmEvents(swarmId, dir);
    assert.deepEqual(
      events.map((e) => e.type),
      ["swarm-started", "agent-added", "agent-text", "board-entry"],
    );
    const summed = events.find((e) => e.type === "agent-text");
    assert.deepEqual(summed?.type === "agent-text" && [summed.agentId, summed.tokens, summed.text], [
      "agent-1",
      13,
      "",
    ]);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /1 line\(s\) were not valid events/);
  });

  it("keeps a swarm's approval requests and their ends, so a window reading a live swarm back can ask again", async () => {
    const ask = { swarmId, time: 6, type: "approval-request", requestId: "r1", agentId: "agent-1" };
    const request = { ...ask, command: "node --version", cwd: "/w", reason: "asked by the policy" };
    const ended = { swarmId, time: 7, type: "approval-ended", requestId: "r1", agentId: "agent-1", outcome: "once" };
    const dir = stateDir([JSON.stringify(started), JSON.stringify(request), JSON.stringify(ended)], []);
    const { events } = await pastSwarmEvents(swarmId, dir);
    assert.deepEqual(
      events.map((e) => e.type),
      ["swarm-started", "approval-request", "approval-ended"],
    );
  });

  it("reads a running swarm's trace up to its mark: what a resume wrote before, and the batches before the mark", async () => {
    const dir = stateDir([JSON.stringify(started), ""], []); // a resumed swarm: its trace goes on from the last run's
    const trace = new EventsTrace(path.join(dir, "events.jsonl"), (message) => assert.fail(message));
    trace.append([added as SwarmEvent]);
    const marked = trace.mark(); // taken now, in the tick a follower is added: the batch below reaches it live
    trace.append([{ ...text, tokens: 5 } as SwarmEvent]);
    const upTo = await marked;
    const types = async (traceBytes?: number) =>
      (await pastSwarmEvents(swarmId, dir, traceBytes)).events.map((e) => e.type);
    assert.deepEqual(await types(upTo), ["swarm-started", "agent-added"]);
    await trace.mark();
    assert.deepEqual(await types(), ["swarm-started", "agent-added", "agent-text"], "the whole trace without a mark");
    assert.deepEqual(await types(0), [], "a mark of 0: nothing written yet");
  });

  it("says what is missing when the state dir is gone, and returns nothing rather than failing", async () => {
    const { events, problems } = await pastSwarmEvents(swarmId, path.join(os.tmpdir(), "no-such-swarm-state"));
    assert.deepEqual(events, []);
    assert.equal(problems.length, 2);
    assert.match(problems[1]!, /findings are not shown/);
  });

  it("shows a swarm whose run was killed as interrupted, with its agents and findings and nothing live", async () => {
    const dir = stateDir([JSON.stringify(started), JSON.stringify(added)], [JSON.stringify(fact)]);
    const view = pastSwarmView(past("interrupted"), (await pastSwarmEvents(swarmId, dir)).events);
    assert.equal(view.interrupted, "its process 42 is gone");
    assert.equal(view.past?.outcome, "interrupted");
    assert.deepEqual(
      view.agents.map((a) => [a.id, a.branch]),
      [["agent-1", "b1"]],
    );
    assert.deepEqual(
      view.entries.map((e) => e.text),
      ["mean throws"],
    );
    assert.equal(view.stats, undefined);
    assert.equal(view.model?.path, model.path);
  });

  it("takes the registry's outcome for a completed swarm and marks one run elsewhere as not running here", () => {
    assert.equal(pastSwarmView(past("completed"), []).status, "completed");
    const elsewhere = pastSwarmView(past("running"), []);
    assert.notEqual(elsewhere.status, "running");
    assert.equal(elsewhere.past?.outcome, "running");
  });

  it("shows a running swarm the shared worker serves to this window as live, to be continued by its events", () => {
    const served = pastSwarmView(past("running"), [], { servedHere: true });
    assert.equal(served.status, "starting", "no event yet: starting, and live");
    assert.equal(served.past, undefined, "not a past swarm: its next events continue it");
  });
});
