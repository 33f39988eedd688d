// A swarm's part of a pool it shares with other swarms, in words: the panel's budget card and the CLI's budget line.
import assert from "node:assert/strict";
import { budgetLine } from "../../../src/cli/terminalView";
import { poolShareText } from "../../../src/core/poolShare";
import { budgetView } from "../../../src/host/panel/panelProjection";
import type { SwarmStats } from "../../../src/protocol/runtime";

const stats: SwarmStats = {
  mode: "shared-cells",
  poolCells: 8_192,
  sequenceCellLimit: 8_192,
  trunkCells: 2_137,
  trunkOwners: 2,
  agents: [],
  usedCells: 3_282,
  freeCells: 4_910,
  reservedCells: 0,
  bytesPerCell: 1024,
  usedBytes: 3_282 * 1024,
  poolBytes: 8_192 * 1024,
  dispatches: 10,
  dispatchedTokens: 40,
  rowsPerDispatch: 4,
  generationSteps: 10,
  meanStepMs: 5,
  generatedTokens: 40,
  tokensPerSecond: 100,
};

describe("a pool shared by several swarms, in words", () => {
  it("says nothing when the pool is the swarm's own", () => {
    assert.equal(poolShareText(undefined), undefined);
    assert.equal(poolShareText({ swarms: 1, usedCells: 3_282 }), undefined);
    assert.equal(budgetView(stats).share, undefined);
    assert.doesNotMatch(budgetLine(stats), /Shares the pool/);
  });

  it("names the other swarms and the cells written against the cap, or says there is no cap", () => {
    assert.equal(
      poolShareText({ swarms: 2, capCells: 5_000, usedCells: 3_282 }),
      "Shares the pool with 1 other swarm (their agents step in the same dispatch): wrote 3,282 cells of its " +
        "5,000-cell cap.",
    );
    assert.match(
      poolShareText({ swarms: 3, usedCells: 12 }) ?? "",
      /^Shares the pool with 2 other swarms .*: wrote 12 cells \(no cap of its own: it may use the pool's free cells\)\.$/,
    );
  });

  it("reaches the panel's budget and the CLI's budget line", () => {
    const shared = { ...stats, share: { swarms: 2, capCells: 5_000, usedCells: 3_282 } };
    assert.match(budgetView(shared).share ?? "", /^Shares the pool with 1 other swarm/);
    assert.match(budgetLine(shared), /; Shares the pool with 1 other swarm .*5,000-cell cap\.$/);
  });
});
