// The panel's projection of the store (pure, no webview): what the page is sent for a 16-agent swarm.
import assert from "node:assert/strict";
import { emptySwarm, reduceSwarm, type SwarmViewState } from "../../../src/core/swarmView";
import { budgetView, colourOf, laneItemsShown, projectSwarm } from "../../../src/host/panel/panelProjection";
import type { SwarmStats } from "../../../src/protocol/runtime";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";

function stats(tails: number[]): SwarmStats {
  const used = 1000 + tails.reduce((a, b) => a + b, 0);
  return {
    mode: "shared-cells",
    poolCells: 16384,
    sequenceCellLimit: 16384,
    trunkCells: 1000,
    trunkOwners: tails.length,
    agents: tails.map((t, i) => ({
      agentId: `agent-${i + 1}`,
      privateCells: t,
      sequenceCells: 1000 + t,
      paused: false,
    })),
    usedCells: used,
    freeCells: 16384 - used,
    reservedCells: 0,
    bytesPerCell: 4,
    usedBytes: used * 4,
    poolBytes: 16384 * 4,
    dispatches: 10,
    dispatchedTokens: 100,
    rowsPerDispatch: 10,
    generationSteps: 5,
    meanStepMs: 12.5,
    generatedTokens: 50,
    tokensPerSecond: 80,
  };
}

function swarmOf16(): SwarmViewState {
  const events: SwarmEvent[] = [];
  for (let n = 1; n <= 16; n++)
    events.push({ type: "agent-added", swarmId: "s", time: n, agent: { id: `agent-${n}`, role: "worker" } });
  for (let i = 0; i < 100; i++)
    events.push({
      type: "tool-call",
      swarmId: "s",
      time: 100 + i,
      agentId: "agent-1",
      callId: `c${i}`,
      tool: "list_dir",
      args: { path: `d${i}` },
    });
  events.push({
    type: "board-entry",
    swarmId: "s",
    time: 300,
    entry: {
      id: "e1",
      kind: "FACT",
      author: "agent-2",
      time: 300,
      scope: { paths: [], globs: [] },
      text: "x",
      refs: [{ path: "src/a.ts", line: 7 }],
    },
  });
  events.push({
    type: "kv-stats",
    swarmId: "s",
    time: 301,
    stats: stats(Array.from({ length: 16 }, (_, i) => 10 * (i + 1))),
  });
  return events.reduce(reduceSwarm, emptySwarm("s", 0));
}

describe("panel projection", () => {
  it("gives each of 16 agents its lane, its private cells and its own colour slot", () => {
    const view = projectSwarm(swarmOf16());
    assert.equal(view.agents.length, 16);
    assert.deepEqual(
      view.agents.map((a) => a.colour),
      Array.from({ length: 16 }, (_, i) => i),
    );
    assert.equal(view.agents[15]?.privateCells, 160);
    assert.equal(colourOf(["a"], "unknown"), 0);
  });

  it("sends only the newest lane items, so an update stays small", () => {
    const lane = projectSwarm(swarmOf16()).agents[0]!.lane;
    assert.equal(lane.length, laneItemsShown);
    assert.match(lane[lane.length - 1]!.text, /^list_dir \{"path":"d99"\}$/);
  });

  it("carries a finding's first file:line and the worker's numbers unchanged", () => {
    const view = projectSwarm(swarmOf16());
    assert.deepEqual(
      view.findings.map((f) => [f.path, f.line]),
      [["src/a.ts", 7]],
    );
    const s = stats([100, 300]);
    const b = budgetView(s);
    for (const k of [
      "poolCells",
      "trunkCells",
      "trunkOwners",
      "usedCells",
      "freeCells",
      "usedBytes",
      "poolBytes",
      "meanStepMs",
      "rowsPerDispatch",
      "tokensPerSecond",
    ] as const) {
      assert.equal(b[k], s[k], k);
    }
    assert.equal(b.moreAgentsFit, Math.floor(s.freeCells / 200));
    assert.equal(budgetView(stats([])).moreAgentsFit, null, "no tails yet: unbounded is sent as null");
    // The sentence the card leads with: agents, bytes of the cache in use, room for more, no cell counts.
    assert.equal(b.summary, "2 agents use 5.5 KB of the 64.0 KB cache (9%); room for about 74 more agents.");
    assert.equal(
      budgetView(stats([])).summary,
      "0 agents use 3.9 KB of the 64.0 KB cache (6%); how many more fit shows once an agent has written.",
    );
  });
});
