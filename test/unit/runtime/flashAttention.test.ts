// When the swarm's context asks for flash attention: the choice follows the cache type and the head size
// (the speed behind the threshold is measured by hand and written in flashAttentionFor's comment).
import assert from "node:assert/strict";
import { flashAttentionFor } from "../../../src/runtime/local/swarmContextOptions";

describe("flash attention for the swarm's context", () => {
  it("is on for a quantised cache, whatever the head size (llama.cpp needs it for a quantised V)", () => {
    assert.equal(flashAttentionFor(true, 32), true);
    assert.equal(flashAttentionFor(true, 128), true);
  });

  it("is off for heads narrower than 16 values (stories260K's 8, the tiny ChatML model's 4)", () => {
    assert.equal(flashAttentionFor(false, 4), false);
    assert.equal(flashAttentionFor(false, 8), false);
    assert.equal(flashAttentionFor(false, 15), false);
  });

  it("is left to llama.cpp for real models' heads (16 and up)", () => {
    for (const size of [16, 64, 128, 256]) assert.equal(flashAttentionFor(false, size), undefined);
  });
});
