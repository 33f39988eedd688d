import { strict as assert } from "assert";
import {
  loopInputs,
  loopStates,
  type LoopEvent,
  type LoopInput,
  type LoopState,
} from "../../../src/protocol/agentLoop";
import {
  advanceLoop,
  AgentLoop,
  allowedInputs,
  initialLoop,
  isTerminal,
  loopTransitions,
  type LoopSnapshot,
} from "../../../src/core/agentLoop";

// The full table, written out once more by hand: every (state, input) pair is checked against it,
// so a change to the table must be made on purpose in both places.
const expected: Record<LoopState, Partial<Record<LoopInput, LoopState>>> = {
  gather: { gathered: "claim", noWork: "done", pause: "paused", stall: "stalled", fail: "failed", stop: "done" },
  claim: {
    claimGranted: "act",
    claimRefused: "gather",
    pause: "paused",
    stall: "stalled",
    fail: "failed",
    stop: "done",
  },
  act: { acted: "verify", pause: "paused", stall: "stalled", fail: "failed", stop: "done" },
  verify: { verified: "merge", verifyFailed: "act", pause: "paused", stall: "stalled", fail: "failed", stop: "done" },
  merge: { merged: "gather", mergeConflict: "act", pause: "paused", stall: "stalled", fail: "failed", stop: "done" },
  paused: { stop: "done", fail: "failed" }, // resume is checked separately: it returns to the paused-in state
  stalled: { resume: "gather", stop: "done", fail: "failed" },
  done: {},
  failed: {},
};

function at(state: LoopState, resumeTo?: LoopState): LoopSnapshot {
  return { agent: "a1", state, seq: 4, iteration: 2, ...(resumeTo === undefined ? {} : { resumeTo }) };
}

describe("agent loop", () => {
  for (const state of loopStates) {
    for (const input of loopInputs) {
      if (state === "paused" && input === "resume") continue;
      const to = expected[state][input];
      it(`${state} + ${input} -> ${to ?? "refused"}`, () => {
        const step = advanceLoop(at(state), input, 100, "why");
        if (to === undefined) {
          assert.equal(step.ok, false);
          assert.match(step.ok ? "" : step.error, new RegExp(`is ${state}: "${input}" does not apply`));
          return;
        }
        assert.ok(step.ok);
        assert.equal(step.loop.state, to);
        const event: LoopEvent = {
          agent: "a1",
          from: state,
          to,
          input,
          seq: 5,
          time: 100,
          iteration: state === "merge" && input === "merged" ? 3 : 2,
          reason: "why",
        };
        assert.deepEqual(step.event, event);
        if (isTerminal(to)) assert.equal(step.loop.endReason, "why");
      });
    }
  }

  for (const before of ["gather", "claim", "act", "verify", "merge"] as const) {
    it(`pause in ${before}, then resume, returns to ${before}`, () => {
      const paused = advanceLoop(at(before), "pause", 1);
      assert.ok(paused.ok);
      assert.equal(paused.loop.resumeTo, before);
      const resumed = advanceLoop(paused.loop, "resume", 2);
      assert.ok(resumed.ok);
      assert.equal(resumed.loop.state, before);
      assert.equal(resumed.event.from, "paused");
      assert.equal(resumed.loop.resumeTo, undefined);
    });
  }

  it("the table accepts exactly the inputs tested above", () => {
    for (const state of loopStates) {
      const listed = new Set(allowedInputs(state));
      const want = new Set(Object.keys(expected[state]));
      if (state === "paused") want.add("resume");
      assert.deepEqual([...listed].sort(), [...want].sort(), state);
      assert.equal(Object.keys(loopTransitions[state]).length, want.size);
    }
  });

  it("runs a whole cycle and emits one event per transition to every listener", () => {
    const loop = new AgentLoop("a7");
    const seen: LoopEvent[] = [];
    const sub = loop.onEvent((e) => seen.push(e));
    const path: LoopInput[] = [
      "gathered",
      "claimGranted",
      "acted",
      "verifyFailed",
      "acted",
      "verified",
      "mergeConflict",
      "acted",
      "verified",
      "merged",
      "noWork",
    ];
    path.forEach((input, i) => loop.send(input, i));
    assert.equal(loop.state, "done");
    assert.equal(loop.current.iteration, 1);
    assert.deepEqual(
      seen.map((e) => e.to),
      ["claim", "act", "verify", "act", "verify", "merge", "act", "verify", "merge", "gather", "done"],
    );
    assert.deepEqual(
      seen.map((e) => e.seq),
      path.map((_, i) => i + 1),
    );
    sub.dispose();
    assert.throws(
      () => loop.send("gathered", 99),
      /a7 is done: "gathered" does not apply \(accepted: none, it has ended\)/,
    );
    assert.equal(seen.length, path.length);
  });

  it("a stalled agent starts again from gather; a new loop starts in gather", () => {
    assert.deepEqual(initialLoop("x"), { agent: "x", state: "gather", seq: 0, iteration: 0 });
    const loop = new AgentLoop("x");
    loop.send("gathered", 1);
    loop.send("claimGranted", 2);
    loop.send("stall", 3, "no progress in 8 steps");
    assert.equal(loop.state, "stalled");
    loop.send("resume", 4);
    assert.equal(loop.state, "gather");
  });
});
