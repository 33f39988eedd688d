import { strict as assert } from "assert";
import fc from "fast-check";
import type { BoardEntry, MessageTarget } from "../../../src/protocol/board";
import { MessageRouter, renderMessages } from "../../../src/core/messages";

let counter = 0;
function message(from: string, to: MessageTarget, text = "hi", id = `m${++counter}`): BoardEntry {
  return { id, kind: "MESSAGE", author: from, time: counter, scope: { paths: [], globs: [] }, text, refs: [], to };
}

function router(...agents: string[]): MessageRouter {
  const r = new MessageRouter();
  for (const a of agents) r.join(a);
  return r;
}

describe("messages", () => {
  it("delivers swarm messages at the next iteration start, to everyone but the sender", () => {
    const r = router("a", "b", "c");
    r.post(message("a", "swarm", "found it"));
    assert.deepEqual(r.take("b", "tool-call-returned"), [], "not when a tool call returns");
    assert.deepEqual(
      r.take("b", "iteration-start").map((m) => m.text),
      ["found it"],
    );
    assert.equal(r.take("c", "iteration-start").length, 1);
    assert.deepEqual(r.take("a", "iteration-start"), [], "the sender does not get its own message");
  });

  it("delivers direct messages when the current tool call returns", () => {
    const r = router("a", "b");
    r.post(message("a", { agent: "b" }, "look at x.ts"));
    assert.deepEqual(r.take("a", "tool-call-returned"), []);
    assert.deepEqual(
      r.take("b", "tool-call-returned").map((m) => m.text),
      ["look at x.ts"],
    );
    assert.deepEqual(r.take("b", "iteration-start"), [], "delivered once");
  });

  it("delivers a pending direct message at an iteration start that comes before any tool return", () => {
    const r = router("a", "b");
    r.post(message("a", { agent: "b" }, "direct"));
    r.post(message("a", "swarm", "broadcast"));
    assert.deepEqual(
      r.take("b", "iteration-start").map((m) => m.text),
      ["direct", "broadcast"],
      "in posting order",
    );
  });

  it("keeps swarm messages waiting while direct ones jump ahead at a tool return, each channel in order", () => {
    const r = router("a", "b");
    r.post(message("a", "swarm", "s1"));
    r.post(message("a", { agent: "b" }, "d1"));
    r.post(message("a", "swarm", "s2"));
    r.post(message("a", { agent: "b" }, "d2"));
    assert.deepEqual(
      r.take("b", "tool-call-returned").map((m) => m.text),
      ["d1", "d2"],
    );
    assert.deepEqual(
      r.take("b", "iteration-start").map((m) => m.text),
      ["s1", "s2"],
    );
  });

  it("keeps every message, delivered or not, and ignores a replayed id", () => {
    const r = router("a", "b");
    const entry = message("a", "swarm", "once");
    assert.equal(r.post(entry)?.seq, 1);
    assert.equal(r.post(entry), undefined);
    r.take("b", "iteration-start");
    assert.deepEqual(
      r.history().map((m) => m.text),
      ["once"],
    );
    assert.equal(r.take("b", "iteration-start").length, 0);
  });

  it("refuses a direct message to an agent that is not in the swarm, and non-messages", () => {
    const r = router("a");
    assert.throws(() => r.post(message("a", { agent: "ghost" })), /agent "ghost", which is not in the swarm/);
    const finding: BoardEntry = { ...message("a", "swarm"), kind: "FACT" };
    assert.throws(() => r.post(finding), /only MESSAGE entries/);
  });

  it("sends swarm messages only to agents that had joined when it was posted", () => {
    const r = router("a");
    r.post(message("a", "swarm", "early"));
    r.join("late");
    r.post(message("a", "swarm", "later"));
    assert.deepEqual(
      r.take("late", "iteration-start").map((m) => m.text),
      ["later"],
    );
  });

  it("renders messages for an agent's context", () => {
    const r = router("a", "b");
    r.post(message("a", { agent: "b" }, "check the lock"));
    assert.equal(renderMessages(r.take("b", "iteration-start")), "[direct #1 from a] check the lock");
  });

  it("property: every message is delivered exactly once to each recipient, in order per channel", () => {
    const agents = ["a", "b", "c", "d"];
    const op = fc.oneof(
      fc.record({ kind: fc.constant("swarm" as const), from: fc.constantFrom(...agents) }),
      fc.record({
        kind: fc.constant("direct" as const),
        from: fc.constantFrom(...agents),
        to: fc.constantFrom(...agents),
      }),
      fc.record({
        kind: fc.constant("take" as const),
        who: fc.constantFrom(...agents),
        point: fc.constantFrom("iteration-start" as const, "tool-call-returned" as const),
      }),
      fc.record({ kind: fc.constant("join" as const), who: fc.constantFrom(...agents) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const r = router("a", "b");
        const joined = new Set(["a", "b"]);
        const expected = new Map<string, string[]>(agents.map((a) => [a, []]));
        const received = new Map<string, Array<{ id: string; seq: number; swarm: boolean }>>(
          agents.map((a) => [a, []]),
        );
        let n = 0;
        for (const o of ops) {
          if (o.kind === "join") {
            r.join(o.who);
            joined.add(o.who);
          } else if (o.kind === "take") {
            for (const m of r.take(o.who, o.point))
              received.get(o.who)?.push({ id: m.id, seq: m.seq, swarm: m.to === "swarm" });
          } else if (joined.has(o.from) && (o.kind === "swarm" || joined.has(o.to))) {
            const id = `p${++n}`;
            r.post(message(o.from, o.kind === "swarm" ? "swarm" : { agent: o.to }, "x", id));
            const targets = o.kind === "swarm" ? [...joined].filter((a) => a !== o.from) : [o.to];
            for (const t of targets) expected.get(t)?.push(id);
          }
        }
        for (const a of joined)
          for (const m of r.take(a, "iteration-start"))
            received.get(a)?.push({ id: m.id, seq: m.seq, swarm: m.to === "swarm" });
        for (const a of agents) {
          const got = received.get(a) ?? [];
          assert.deepEqual(
            got.map((m) => m.id).sort(),
            [...(expected.get(a) ?? [])].sort(),
            `agent ${a} got each message once`,
          );
          for (const swarm of [true, false]) {
            const seqs = got.filter((m) => m.swarm === swarm).map((m) => m.seq);
            assert.deepEqual(
              seqs,
              [...seqs].sort((x, y) => x - y),
              `agent ${a}: ${swarm ? "swarm" : "direct"} channel in order`,
            );
          }
        }
        assert.equal(r.history().length, n, "every message kept");
      }),
      { numRuns: 300 },
    );
  });
});
