import assert from "node:assert/strict";
import { questionWaitText } from "../../../src/protocol/steering";

describe("protocol: the countdown under an agent's question", () => {
  it("counts minutes and seconds, then seconds, then says the agent decides alone", () => {
    assert.equal(questionWaitText(300_000), "No answer within 5:00: it decides alone.");
    assert.equal(questionWaitText(61_001), "No answer within 1:02: it decides alone.");
    assert.equal(questionWaitText(59_500), "No answer within 1:00: it decides alone.");
    assert.equal(questionWaitText(40_000), "No answer within 40 s: it decides alone.");
    assert.equal(questionWaitText(1), "No answer within 1 s: it decides alone.");
    assert.equal(questionWaitText(0), "No answer in time: it decides alone.");
    assert.equal(questionWaitText(-5_000), "No answer in time: it decides alone.");
  });
});
