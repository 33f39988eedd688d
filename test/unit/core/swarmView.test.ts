// The one view every surface projects: an agent's claim comes from its CLAIM entry (its scope, described)
// and ends with its RELEASE, whatever the lane's text says.
import { strict as assert } from "assert";
import { emptySwarm, reduceSwarm, type SwarmViewState } from "../../../src/core/swarmView";
import type { BoardEntry } from "../../../src/protocol/board";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";

const at = { swarmId: "s", time: 1 };

function entry(kind: BoardEntry["kind"], id: string, extra: Partial<BoardEntry> = {}): SwarmEvent {
  return {
    ...at,
    type: "board-entry",
    entry: { id, kind, author: "agent-1", time: 1, scope: { paths: [], globs: [] }, text: "t", refs: [], ...extra },
  };
}

function fold(events: readonly SwarmEvent[]): SwarmViewState {
  return events.reduce(reduceSwarm, emptySwarm("s", 0));
}

describe("swarm view: claims", () => {
  const added: SwarmEvent = { ...at, type: "agent-added", agent: { id: "agent-1", role: "worker" } };

  it("takes an agent's claim from its CLAIM entry and drops it at its RELEASE", () => {
    const claimed = fold([added, entry("CLAIM", "agent-1-1", { scope: { paths: ["src/stats.js"], globs: [] } })]);
    assert.equal(claimed.agents[0]?.claim, "src/stats.js");
    const released = reduceSwarm(claimed, entry("RELEASE", "agent-1-2", { releases: "agent-1-1" }));
    assert.equal(released.agents[0]?.claim, undefined);
  });

  it("does not read a claim out of a tool result's words", () => {
    const view = fold([
      added,
      { ...at, type: "tool-result", agentId: "agent-1", callId: "c1", ok: true, summary: "claimed everything" },
    ]);
    assert.equal(view.agents[0]?.claim, undefined);
    assert.equal(view.agents[0]?.lane.at(-1)?.text, "claimed everything");
  });
});
