// A call while it is written (issue 29: "nothing shows what an agent is writing"): its one-line preview, the view's
// token count that moves with it and is not counted twice when the complete call arrives, and the throttle that
// keeps only the newest progress of a call.
import { strict as assert } from "assert";
import { callPreview } from "../../../src/core/callPreview";
import { SwarmEventThrottle } from "../../../src/core/eventThrottle";
import { emptySwarm, reduceSwarm, type SwarmViewState } from "../../../src/core/swarmView";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";

const at = { swarmId: "s", time: 1 };
const added: SwarmEvent = { ...at, type: "agent-added", agent: { id: "agent-1", role: "worker" } };
const progress = (tokens: number, preview = "write_file src/calc.js · 1.2 KB…"): SwarmEvent => ({
  ...at,
  type: "call-progress",
  agentId: "agent-1",
  tool: "write_file",
  preview,
  tokens,
});

function fold(events: readonly SwarmEvent[]): SwarmViewState {
  return events.reduce(reduceSwarm, emptySwarm("s", 0));
}

describe("a call while it is written", () => {
  it("previews the tool, the argument it is known by and the size so far, from incomplete JSON", () => {
    const content = "x".repeat(1200);
    assert.equal(
      callPreview("write_file", `{"path":"src/calc.js","content":"${content}`),
      "write_file src/calc.js · 1.2 KB…",
    );
    assert.equal(callPreview("run_command", '{"command":"npm te'), "run_command npm te · 18 B…");
    assert.equal(callPreview("post_finding", '{"kind":"OBS'), "post_finding · 12 B…");
    assert.equal(callPreview("read_file", '{"path":"a\\"b.js"}'), 'read_file a"b.js · 18 B…');
    const long = callPreview("write_file", `{"path":"${"d/".repeat(60)}x.js"`);
    assert.ok(long.length < 120, long);
  });

  it("moves the agent's token count with the call and counts the complete call once", () => {
    const writing = fold([added, progress(40), progress(400)]);
    assert.equal(writing.agents[0]?.tokens, 400);
    assert.equal(writing.agents[0]?.writing?.preview, "write_file src/calc.js · 1.2 KB…");
    const done = reduceSwarm(writing, {
      ...at,
      type: "agent-text",
      agentId: "agent-1",
      text: 'write_file {"path":"src/calc.js"}\n',
      tokens: 420,
    });
    assert.equal(done.agents[0]?.tokens, 420, "the complete call's 420 tokens, not 820");
    assert.equal(done.agents[0]?.writing, undefined);
  });

  it("keeps only the newest progress of a call in a batch, and every other event", () => {
    const batches: SwarmEvent[][] = [];
    const throttle = new SwarmEventThrottle((b) => batches.push(b), 100, {
      setTimeout: () => 1,
      clearTimeout: () => undefined,
    });
    throttle.push(added);
    throttle.push(progress(10));
    throttle.push(progress(20));
    throttle.push({ ...at, type: "agent-state", agentId: "agent-2", state: "act" });
    throttle.push(progress(30));
    throttle.flush();
    assert.deepEqual(
      batches[0]!.map((e) => (e.type === "call-progress" ? `progress ${e.tokens}` : e.type)),
      ["agent-added", "progress 30", "agent-state"],
    );
  });
});
