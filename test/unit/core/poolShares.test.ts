// How a pool several swarms share is sized and split: the sequences its size counts, and the cap a swarm that
// asked for none gets at launch (a fair share of the pool among the swarms it was sized for, or running).
import assert from "node:assert/strict";
import { fairShareCells, poolSizingSequences } from "../../../src/core/poolShares";
import { poolShareText } from "../../../src/core/poolShare";

describe("a pool sized for several swarms", () => {
  it("counts each swarm's sequences, one swarm's when not asked, at most sixteen swarms'", () => {
    assert.equal(poolSizingSequences(10, undefined), 10);
    assert.equal(poolSizingSequences(10, 1), 10);
    assert.equal(poolSizingSequences(10, 3), 30);
    assert.equal(poolSizingSequences(10, 99), 160);
  });

  it("gives the first swarm on a pool sized for one no cap, and on one sized for several its part", () => {
    assert.equal(fairShareCells({ poolCells: 8192, poolSwarms: 1, running: 0, room: 8192 }), undefined);
    assert.equal(fairShareCells({ poolCells: 8192, poolSwarms: 2, running: 0, room: 8192 }), 4096);
    assert.equal(fairShareCells({ poolCells: 8192, poolSwarms: 3, running: 0, room: 8192 }), 2730);
  });

  it("splits among the swarms running when they are more than the pool was sized for, never past the room", () => {
    assert.equal(fairShareCells({ poolCells: 8192, poolSwarms: 2, running: 1, room: 4096 }), 4096);
    assert.equal(fairShareCells({ poolCells: 8192, poolSwarms: 2, running: 3, room: 8000 }), 2048);
    assert.equal(fairShareCells({ poolCells: 8192, poolSwarms: 1, running: 1, room: 1000 }), 1000);
    assert.equal(fairShareCells({ poolCells: 8192, poolSwarms: 4, running: 1, room: -5 }), 0);
  });

  it("says in the budget what a swarm alone on a pool sized for more holds of it", () => {
    assert.equal(
      poolShareText({ swarms: 1, capCells: 4096, usedCells: 1200 }, 8192),
      "Alone on the 8,192-cell pool, sized for more swarms (the rest is kept for them): wrote 1,200 cells of its " +
        "4,096-cell cap.",
    );
    assert.equal(poolShareText({ swarms: 1, usedCells: 1200 }, 8192), undefined, "no cap: the pool is its own");
  });
});
