import { strict as assert } from "assert";
import fc from "fast-check";
import { compactBrief, filesTouched, type AgentRecord, type BoardState } from "../../../src/core/compactBrief";
import type { BoardEntry } from "../../../src/protocol/board";
import type { DeliveredMessage } from "../../../src/protocol/messages";

const noScope = { paths: [], globs: [] };

function finding(id: string, author: string, kind: BoardEntry["kind"], text: string): BoardEntry {
  return { id, kind, author, time: 1, scope: noScope, text, refs: [] };
}

function message(seq: number, from: string, to: DeliveredMessage["to"], text: string): DeliveredMessage {
  return { id: `${from}-m${seq}`, from, to, text, time: seq, seq };
}

function record(calls: AgentRecord["calls"], compactions = 0): AgentRecord {
  return {
    id: "agent-1",
    firstBrief: "You are agent-1, a worker. Open tasks:\n- [t1] Fix median",
    steps: calls.length,
    compactions,
    calls,
  };
}

const board: BoardState = {
  entries: [
    finding("agent-1-1", "agent-1", "FACT", "mean throws on an empty list"),
    finding("agent-2-1", "agent-2", "FACT", "someone else's fact"),
    finding("agent-1-2", "agent-1", "MESSAGE", "not a finding"),
  ],
  claims: [
    {
      claimId: "agent-1-3",
      agent: "agent-1",
      scope: { paths: [], globs: [], taskId: "t1" },
      grantedAt: 1,
      leaseUntil: 9,
    },
  ],
  messages: [
    message(1, "agent-2", { agent: "agent-1" }, "median is yours"),
    message(2, "agent-2", { agent: "agent-3" }, "not for agent-1"),
    message(3, "agent-1", "swarm", "working on median"),
    message(4, "agent-3", "swarm", "tests are red"),
  ],
};

const calls: AgentRecord["calls"] = [
  { tool: "read_file", args: '{"path":"src/stats.js"}', ok: true, readback: '{"result":{"totalLines":20}}' },
  { tool: "edit_file", args: '{"path":"src/stats.js","search":"a","replace":"b"}', ok: true, readback: "{}" },
  { tool: "write_file", args: '{"path":"src/new.js","content":"x"}', ok: false, readback: '{"error":"denied"}' },
  { tool: "search", args: '{"pattern":"median","paths":["src"]}', ok: true, readback: "{}" },
];

describe("compactBrief", () => {
  it("lists what the agent holds: claim, first brief, files, its findings, its messages, its last calls", () => {
    const brief = compactBrief(record(calls, 2), board, 4000);
    assert.match(brief, /^You are agent-1\. Your context was compacted \(compaction 3, after 4 steps\)/);
    assert.match(brief, /Your claims \(still yours\):\n- agent-1-3: task t1/);
    assert.match(brief, /- \[t1\] Fix median/);
    // The search's paths are not files it touched, and a failed write touched nothing.
    assert.match(brief, /Files you touched:\n- src\/stats\.js \(written\)\nYour findings:/);
    assert.match(brief, /Your findings:\n- FACT: mean throws on an empty list\n/);
    assert.ok(!brief.includes("someone else's fact") && !brief.includes("not a finding"));
    assert.match(brief, /Messages to you:\n- #1 from agent-2: median is yours\n- #4 from agent-3: tests are red\n/);
    assert.ok(!brief.includes("not for agent-1"));
    assert.match(brief, /Messages you sent:\n- #3 to swarm: working on median\n/);
    assert.match(brief, /- write_file \{"path":"src\/new\.js","content":"x"\} -> \{"error":"denied"\}$/m);
  });

  it("is the same text for the same board and record", () => {
    assert.equal(compactBrief(record(calls), board, 4000), compactBrief(record(calls), board, 4000));
  });

  it("says when it holds no claim", () => {
    assert.match(compactBrief(record([]), { entries: [], claims: [], messages: [] }, 4000), /You hold no claim\./);
  });

  it("keeps the newest calls and says how many it left out", () => {
    const many = Array.from({ length: 30 }, (_, i) => ({
      tool: "list_dir",
      args: `{"path":"dir${i}"}`,
      ok: true,
      readback: `{"n":${i}}`,
    }));
    const brief = compactBrief(record(many), board, 4000);
    assert.match(brief, /Your last calls and what they returned \(newest 8 of 30\):/);
    assert.ok(brief.includes('{"n":29}') && !brief.includes('{"n":21}'));
  });

  it("fits in maxChars whatever the record holds, keeping the claim while it can", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ tool: fc.constantFrom("read_file", "edit_file"), text: fc.string() }), { maxLength: 40 }),
        fc.integer({ min: 120, max: 3000 }),
        (raw, maxChars) => {
          const big = raw.map((c) => ({
            tool: c.tool,
            args: JSON.stringify({ path: c.text || "f" }),
            ok: true,
            readback: c.text.repeat(50),
          }));
          const brief = compactBrief(record(big), board, maxChars);
          assert.ok(brief.length <= maxChars, `${brief.length} > ${maxChars}`);
          if (maxChars >= 400) assert.ok(brief.includes("agent-1-3: task t1"), "the claim survives");
        },
      ),
    );
  });

  it("finds the files of path and paths arguments, written wins over read", () => {
    assert.deepEqual(
      filesTouched([
        { tool: "read_file", args: '{"path":"a.js"}', ok: true, readback: "" },
        { tool: "list_dir", args: '{"path":"src"}', ok: true, readback: "" },
        { tool: "edit_file", args: '{"path":"a.js"}', ok: true, readback: "" },
        { tool: "read_file", args: "not json", ok: true, readback: "" },
      ]),
      [
        { path: "a.js", written: true },
        { path: "src", written: false },
      ],
    );
  });
});
