// A window whose connection to the shared worker ended and came back: what its swarm did meanwhile (read back up to
// the new follow) is laid over what the window shows: every finding once, the agents added meanwhile, each agent's
// last state and tokens so far, the end if it came; the lanes keep what they showed and the start is not reset.
import assert from "node:assert/strict";
import { emptySwarm, reduceSwarm } from "../../../src/core/swarmView";
import type { BoardEntry } from "../../../src/protocol/board";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";
import { rejoinedView } from "../../../src/host/swarm/rejoinedSwarms";

const swarmId = "e2e-20261204-010000-abcd";
const started = {
  type: "swarm-started",
  swarmId,
  time: 1,
  goal: "g",
  recipe: "e2e",
  mode: "shared-cells",
  trunkTokens: 10,
};
const added = (id: string, parent?: string) =>
  ({
    type: "agent-added",
    swarmId,
    time: 2,
    agent: { id, role: "worker", ...(parent ? { parent } : {}) },
  }) as SwarmEvent;
const state = (agentId: string, s: string, time: number) => ({ type: "agent-state", swarmId, time, agentId, state: s });
const text = (agentId: string, tokens: number) => ({ type: "agent-text", swarmId, time: 3, agentId, text: "", tokens });
const entry = (id: string): SwarmEvent => {
  const e: BoardEntry = {
    id,
    kind: "OBSERVED",
    author: "agent-1",
    time: 4,
    scope: { paths: [], globs: [] },
    text: id,
    refs: [],
  };
  return { type: "board-entry", swarmId, time: 4, entry: e };
};

describe("a swarm rejoined after the shared worker's connection came back", () => {
  it("gets the findings, agents, states and tokens it missed, each once, and keeps its lanes and start", () => {
    const live = [started, added("agent-1"), state("agent-1", "act", 5), text("agent-1", 7), entry("f1")];
    const shown = (live as SwarmEvent[]).reduce(reduceSwarm, emptySwarm(swarmId, 1));
    const laneBefore = shown.agents[0]!.lane.length;
    const readBack = [
      { ...started, time: 99 },
      added("agent-1"),
      added("agent-2", "agent-1"),
      state("agent-1", "act", 5),
      state("agent-1", "verify", 6),
      state("agent-2", "gather", 6),
      entry("f1"),
      entry("f2"),
      text("agent-1", 19),
      text("agent-2", 4),
    ] as SwarmEvent[];
    const view = rejoinedView({ ...shown, usage: [] }, readBack);
    assert.deepEqual(
      view.entries.map((e) => e.id),
      ["f1", "f2"],
    );
    assert.deepEqual(
      view.agents.map((a) => [a.id, a.state, a.tokens]),
      [
        ["agent-1", "verify", 19],
        ["agent-2", "gather", 4],
      ],
    );
    assert.deepEqual(view.subAgents, ["agent-2"]);
    assert.equal(view.startedAt, 1, "the start it showed");
    // f2's line and the one state it had not shown; nothing it showed twice.
    assert.equal(view.agents[0]!.lane.length, laneBefore + 2);
    assert.deepEqual(view.usage, [], "what only the live window had stays");
    const again = rejoinedView(view, readBack);
    assert.deepEqual(again.agents, view.agents, "laid over twice (two follows), the same");
    assert.deepEqual(again.entries, view.entries);
  });

  it("takes the end that came while the connection was gone", () => {
    const shown = ([started, added("agent-1")] as SwarmEvent[]).reduce(reduceSwarm, emptySwarm(swarmId, 1));
    const ended = { type: "swarm-ended", swarmId, time: 9, outcome: "completed", reason: "" } as SwarmEvent;
    const view = rejoinedView(shown, [ended]);
    assert.equal(view.status, "completed");
    assert.equal(view.endedAt, 9);
  });
});
