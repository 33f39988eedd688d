// A compaction by re-fork as every surface sees it: the view counts it per agent and over the swarm (with the
// cells it released), the agent's lane shows it, and the CLI's live block shows the counts.
import { strict as assert } from "assert";
import { PassThrough } from "node:stream";
import { TerminalView } from "../../../src/cli/terminalView";
import { emptySwarm, reduceSwarm } from "../../../src/core/swarmView";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";
import { swarmEventSchema } from "../../../src/protocol/swarmEvents";

const at = { swarmId: "s", time: 1 };

function compacted(compaction: number, releasedCells: number): SwarmEvent {
  return swarmEventSchema.parse({
    ...at,
    type: "agent-compacted",
    agentId: "agent-1",
    compaction,
    releasedCells,
    shareCells: 1024,
    brief: "You are agent-1. Your context was compacted.",
    briefTokens: 120,
    steps: 40 * compaction,
    tokens: 900 * compaction,
    positions: { ledgerCells: 500, llamaMinPosition: 0, llamaMaxPosition: 499 },
  });
}

const events: SwarmEvent[] = [
  { ...at, type: "agent-added", agent: { id: "agent-1", role: "worker", branch: "b1" } },
  compacted(1, 700),
  compacted(2, 650),
];

describe("compactions in the swarm view", () => {
  it("counts them per agent and over the swarm, with the cells released, and shows them in the lane", () => {
    const view = events.reduce(reduceSwarm, emptySwarm("s", 0));
    assert.equal(view.agents[0]?.compactions, 2);
    assert.deepEqual([view.compactions, view.compactedCells], [2, 1350]);
    assert.equal(
      view.agents[0]?.lane.at(-1)?.text,
      "compacted (#2): released 650 of 1024 cells, re-forked from the trunk with a 120-token brief",
    );
  });

  it("shows the counts in the CLI's live block", () => {
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on("data", (c: Buffer) => chunks.push(c.toString("utf8")));
    const terminal = new TerminalView(Object.assign(out, { isTTY: true }) as unknown as NodeJS.WriteStream, true);
    const stats = {
      mode: "shared-cells" as const,
      poolCells: 4096,
      sequenceCellLimit: 4096,
      trunkCells: 500,
      trunkOwners: 1,
      agents: [{ agentId: "agent-1", privateCells: 100, sequenceCells: 600, paused: false }],
      usedCells: 600,
      freeCells: 3496,
      reservedCells: 0,
      bytesPerCell: 640,
      usedBytes: 384_000,
      poolBytes: 2_621_440,
      dispatches: 10,
      dispatchedTokens: 10,
      rowsPerDispatch: 1,
      generationSteps: 10,
      meanStepMs: 1,
      generatedTokens: 10,
      tokensPerSecond: 100,
    };
    terminal.onEvents([...events, { ...at, type: "kv-stats", stats }]);
    const lines = chunks.join("").split("\n");
    assert.ok(
      lines.some((l) => /agent-1 .* x2 compacted/.test(l)),
      lines.join("\n"),
    );
    assert.ok(
      lines.some((l) => l.includes("; 2 compactions released 1350 cells")),
      lines.join("\n"),
    );
  });
});
