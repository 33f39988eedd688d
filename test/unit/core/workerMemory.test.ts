// The worker's memory beyond weights and KV (pure rule): the fixed part is read with no agent live, the per-agent
// part is the growth above it per live agent (kept from the sample with the most agents), the bound is the
// available memory less the safety share over the per-agent figure; the budget's room for more agents is the
// smaller of the KV room and the memory room, and the launch says when memory is short for the plan.
import assert from "node:assert/strict";
import {
  agentsByMemory,
  defaultRestPerAgentBytes,
  describeWorkerMemory,
  memoryRoomNote,
  splitWorkerMemory,
  type MemorySample,
  type MemorySplitState,
} from "../../../src/core/workerMemory";
import { budgetView } from "../../../src/host/panel/panelProjection";
import type { SwarmStats } from "../../../src/protocol/runtime";

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

function sample(residentMiB: number, liveAgents: number, availableBytes = 8 * GiB): MemorySample {
  return { residentBytes: residentMiB * MiB, weightsBytes: 500 * MiB, kvBytes: 100 * MiB, availableBytes, liveAgents };
}

describe("core: the worker's memory beyond weights and KV", () => {
  it("splits the rest into the fixed part (no agent live) and a part per agent", () => {
    let state: MemorySplitState = {};
    const before = splitWorkerMemory(state, sample(900, 0));
    state = before.state;
    assert.equal(before.memory.restBytes, 300 * MiB);
    assert.equal(before.memory.fixedRestBytes, 300 * MiB);
    assert.equal(before.memory.perAgentRestBytes, undefined, "not measured before agents ran");
    assert.equal(before.memory.moreAgentsByMemory, undefined);

    const eight = splitWorkerMemory(state, sample(932, 8));
    state = eight.state;
    assert.equal(eight.memory.perAgentRestBytes, 4 * MiB);
    assert.equal(eight.memory.measuredAgents, 8);
    assert.equal(eight.memory.moreAgentsByMemory, Math.floor((8 * GiB * 0.75) / (4 * MiB)));

    // Fewer agents later (noisier per agent) do not replace the figure measured with more.
    const two = splitWorkerMemory(state, sample(940, 2));
    assert.equal(two.memory.perAgentRestBytes, 4 * MiB);
    assert.equal(two.memory.restBytes, 340 * MiB, "the rest itself is always the reading now");
  });

  it("never reports a negative rest or per-agent part (the heap shrank after a collection)", () => {
    const { state } = splitWorkerMemory({}, sample(900, 0));
    const shrunk = splitWorkerMemory(state, sample(880, 4));
    assert.equal(shrunk.memory.perAgentRestBytes, 0);
    const tiny = splitWorkerMemory({}, sample(100, 0));
    assert.equal(tiny.memory.restBytes, 0);
  });

  it("says when the rest would not leave room for the planned agents, and nothing when it does", () => {
    const { memory } = splitWorkerMemory({}, sample(900, 0, 40 * MiB));
    const note = memoryRoomNote(memory, 16);
    assert.ok(note !== undefined);
    assert.match(note, /4\.0 MiB per agent \(bench:memory's figure\)/);
    assert.match(note, /40\.0 MiB available \(keeping 25% aside\) holds 7 agent\(s\), fewer than the 16 planned/);
    assert.equal(agentsByMemory(40 * MiB, defaultRestPerAgentBytes), 7);
    assert.equal(memoryRoomNote(memory, 7), undefined);
  });

  it("describes the whole split in words", () => {
    const { state } = splitWorkerMemory({}, sample(900, 0));
    const { memory } = splitWorkerMemory(state, sample(932, 8));
    assert.equal(
      describeWorkerMemory(memory),
      "932.0 MiB resident = 500.0 MiB weights + 100.0 MiB KV + 332.0 MiB rest (300.0 MiB fixed, 4.0 MiB per agent, " +
        "measured with 8 live); 8.0 GiB available holds the rest of 1536 more agent(s)",
    );
  });

  it("bounds the budget's room for more agents by memory when memory is the smaller", () => {
    const base: SwarmStats = {
      mode: "shared-cells",
      poolCells: 16_384,
      sequenceCellLimit: 16_384,
      trunkCells: 1_000,
      trunkOwners: 4,
      agents: [1, 2, 3, 4].map((n) => ({
        agentId: `agent-${n}`,
        privateCells: 100,
        sequenceCells: 1_100,
        paused: false,
      })),
      usedCells: 1_400,
      freeCells: 14_984,
      reservedCells: 0,
      bytesPerCell: 1024,
      usedBytes: 1_400 * 1024,
      poolBytes: 16_384 * 1024,
      dispatches: 10,
      dispatchedTokens: 40,
      rowsPerDispatch: 4,
      generationSteps: 10,
      meanStepMs: 5,
      generatedTokens: 40,
      tokensPerSecond: 100,
    };
    const plenty = budgetView(base);
    assert.ok(plenty.moreAgentsFit !== null && plenty.moreAgentsFit > 100, JSON.stringify(plenty));
    assert.equal(plenty.memory, undefined);
    const { state } = splitWorkerMemory({}, sample(900, 0, 40 * MiB));
    const { memory } = splitWorkerMemory(state, sample(916, 4, 40 * MiB));
    const short = budgetView({ ...base, memory });
    assert.equal(short.moreAgentsFit, 7, "memory holds 7 more agents' rest, fewer than the KV room");
    assert.equal(short.moreAgentsLimitedBy, "memory");
    assert.equal(short.memory?.perAgentRestBytes, 4 * MiB);
    assert.match(short.memory?.text ?? "", /^916\.0 MiB resident = 500\.0 MiB weights/);
  });
});
