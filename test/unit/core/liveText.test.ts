// An agent's text reaches its lane as it is written: the throttle joins one agent's token deltas into one event
// per batch (never across a tool result), the view folds a turn's deltas into the lane's live text and keeps the
// thought in the timeline before its call, and the CLI shows the text live on a TTY and once per call in a log.
import { strict as assert } from "assert";
import { PassThrough } from "node:stream";
import { TerminalView } from "../../../src/cli/terminalView";
import { SwarmEventThrottle } from "../../../src/core/eventThrottle";
import { emptySwarm, reduceSwarm, type SwarmViewState } from "../../../src/core/swarmView";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";

const at = { swarmId: "s", time: 1 };
const text = (t: string, tokens = 1, agentId = "agent-1"): SwarmEvent => ({
  ...at,
  type: "agent-text",
  agentId,
  text: t,
  tokens,
});
const call: SwarmEvent = {
  ...at,
  type: "tool-call",
  agentId: "agent-1",
  callId: "c1",
  tool: "read_file",
  args: '{"path":"a.js"}',
  thought: "I will read a.js first.",
};
const result: SwarmEvent = { ...at, type: "tool-result", agentId: "agent-1", callId: "c1", ok: true, summary: "read" };

/** A scheduler whose timer fires when the test says. */
function manualScheduler() {
  const pending: (() => void)[] = [];
  return {
    scheduler: {
      setTimeout: (fn: () => void) => pending.push(fn),
      clearTimeout: () => pending.splice(0),
    },
    fire: () => pending.splice(0).forEach((fn) => fn()),
  };
}

function fold(events: readonly SwarmEvent[]): SwarmViewState {
  return events.reduce(reduceSwarm, emptySwarm("s", 0));
}

describe("live text: throttle, view and CLI", () => {
  it("joins one agent's token deltas into one event per batch, and never across a tool result", () => {
    const batches: SwarmEvent[][] = [];
    const { scheduler, fire } = manualScheduler();
    const throttle = new SwarmEventThrottle((events) => batches.push(events), 100, scheduler);
    const words = "I will read a.js first.".split(/(?= )/);
    for (const word of words) throttle.push(text(word));
    fire();
    throttle.push(text("read_file {}\n", 5));
    throttle.push(call);
    throttle.push(result);
    throttle.push(text("Next", 1));
    fire();
    assert.equal(batches.length, 2, "one delivery per interval");
    assert.deepEqual(batches[0], [{ ...text(words.join(""), words.length) }]);
    assert.deepEqual(
      batches[1]!.map((e) => e.type),
      ["agent-text", "tool-call", "tool-result", "agent-text"],
    );
  });

  it("joins interleaved agents' deltas per agent: one text event per agent per batch", () => {
    const batches: SwarmEvent[][] = [];
    const { scheduler, fire } = manualScheduler();
    const throttle = new SwarmEventThrottle((events) => batches.push(events), 100, scheduler);
    const ids = ["agent-1", "agent-2", "agent-3", "agent-4"];
    // Lockstep: each step every agent writes one token.
    for (let step = 0; step < 10; step++) for (const agentId of ids) throttle.push(text(`${step}`, 1, agentId));
    fire();
    assert.equal(batches.length, 1);
    assert.deepEqual(
      batches[0]!.map((e) => e.type === "agent-text" && [e.agentId, e.text, e.tokens]),
      ids.map((id) => [id, "0123456789", 10]),
    );
  });

  it("folds a turn's deltas into the lane's live text and starts afresh after the result", () => {
    const writing = fold([text("I will "), text("read a.js")]);
    assert.equal(writing.agents[0]?.current, "I will read a.js");
    assert.equal(writing.agents[0]?.tokens, 2);
    const called = fold([text("I will read a.js first."), text("read_file {}\n", 5), call, result]);
    const lane = called.agents[0]!.lane.map((i) => [i.kind, i.text]);
    assert.deepEqual(lane, [
      ["thought", "I will read a.js first."],
      ["call", 'read_file {"path":"a.js"}'],
      ["result", "read"],
    ]);
    assert.equal(called.agents[0]?.tokens, 6);
    const next = reduceSwarm(called, text("Now the test"));
    assert.equal(next.agents[0]?.current, "Now the test", "a new turn's text replaces the last turn's");
  });

  it("shows the text being written in the live block, and each thought once in a log", () => {
    const chunks: string[] = [];
    const out = new PassThrough();
    out.on("data", (c: Buffer) => chunks.push(c.toString("utf8")));
    const live = new TerminalView(Object.assign(out, { isTTY: true }) as unknown as NodeJS.WriteStream, true);
    live.onEvents([{ ...at, type: "agent-added", agent: { id: "agent-1", role: "worker" } }, text("Thinking about")]);
    live.onEvents([text(" the median bug")]);
    const rows = chunks.join("").split("\n");
    assert.ok(
      rows.some((row) => /agent-1 .*> Thinking about the median bug$/.test(row)),
      `a row with the live text in ${JSON.stringify(rows)}`,
    );
    live.onEvents([call, result]);
    assert.match(chunks.join("").split("\n").filter(Boolean).at(-1) ?? "", /agent-1 .* read$/);

    const logged: string[] = [];
    const logOut = new PassThrough();
    logOut.on("data", (c: Buffer) => logged.push(c.toString("utf8")));
    const log = new TerminalView(logOut as unknown as NodeJS.WriteStream, false);
    log.onEvents([text("I will"), text(" read a.js first."), call, result]);
    assert.deepEqual(logged.join("").split("\n").filter(Boolean), [
      "  agent-1 thinks: I will read a.js first.",
      "  agent-1: ok read",
    ]);
  });
});
