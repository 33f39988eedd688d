import { strict as assert } from "assert";
import { MemoryBoardStore } from "../../../src/core/boardStore";
import { isBoardTool, runBoardTool } from "../../../src/core/boardToolCalls";
import { SwarmBoard } from "../../../src/core/swarmBoard";

function swarm(): SwarmBoard {
  const s = new SwarmBoard({ store: new MemoryBoardStore(), visibility: "shared", leaseMs: 1000 });
  s.join("w1");
  s.join("w2");
  return s;
}

describe("board tool calls", () => {
  it("knows its tools", () => {
    assert.equal(isBoardTool("grep_board"), true);
    assert.equal(isBoardTool("read_file"), false);
    assert.equal(isBoardTool("toString"), false);
  });

  it("posts a finding and finds it again with grep_board", async () => {
    const s = swarm();
    const posted = await runBoardTool(s, "w1", "post_finding", { kind: "FACT", text: "queue leaks the lock", refs: [{ path: "src/q.ts", line: 7 }] }, 1);
    assert.deepEqual(posted, { ok: true, text: "Posted FACT w1-1.", newFinding: true });
    const found = await runBoardTool(s, "w2", "grep_board", { regex: "lock", path: "src" }, 2);
    assert.equal(found.text, "[w1-1] FACT w1: queue leaks the lock (src/q.ts:7)");
  });

  it("claims, refuses an overlap, and releases only the holder's claim", async () => {
    const s = swarm();
    const granted = await runBoardTool(s, "w1", "claim", { scope: { paths: ["src/q.ts"] }, text: "fix the leak" }, 1);
    assert.match(granted.text, /^Claim w1-1 granted on src\/q\.ts until 1001/);
    const refused = await runBoardTool(s, "w2", "claim", { scope: { globs: ["src/*.ts"] }, text: "lint" }, 2);
    assert.equal(refused.ok, false);
    assert.match(refused.text, /^Claim refused: overlaps w1's claim w1-1.*message w1\.$/);
    assert.equal((await runBoardTool(s, "w2", "release", { claimId: "w1-1", reason: "mine now" }, 3)).text, "You hold no live claim w1-1.");
    assert.equal((await runBoardTool(s, "w1", "release", { claimId: "w1-1", reason: "done" }, 3)).text, "Released w1-1.");
  });

  it("sends messages and returns bad arguments and failures as text", async () => {
    const s = swarm();
    assert.equal((await runBoardTool(s, "w1", "send_message", { to: "w2", text: "ping" }, 1)).text, "Message #1 sent to w2.");
    assert.deepEqual(s.deliver("w2", "tool-call-returned").map((m) => m.text), ["ping"]);
    const bad = await runBoardTool(s, "w1", "post_finding", { kind: "GUESS", text: "" }, 1);
    assert.equal(bad.ok, false);
    assert.match(bad.text, /^post_finding: bad arguments \(kind: .*text: /);
    assert.match((await runBoardTool(s, "w1", "send_message", { to: "ghost", text: "x" }, 1)).text, /^send_message failed: Cannot message "ghost"/);
    assert.match((await runBoardTool(s, "w1", "grep_board", { regex: "(" }, 1)).text, /^grep_board failed: grep_board: the regex/);
  });
});
