import { strict as assert } from "assert";
import { MemoryBoardStore } from "../../../src/core/boardStore";
import { SwarmBoard } from "../../../src/core/swarmBoard";
import type { Visibility } from "../../../src/protocol/board";

function swarm(visibility: Visibility = "shared", store = new MemoryBoardStore()): SwarmBoard {
  const s = new SwarmBoard({ store, visibility, leaseMs: 1000 });
  s.join("w1");
  s.join("w2");
  s.join("syn", { isSynthesist: true });
  return s;
}

describe("swarm board", () => {
  it("posts findings to the store before the board, with ids per author", async () => {
    const store = new MemoryBoardStore();
    const s = swarm("shared", store);
    const e1 = await s.postFinding({
      author: "w1",
      kind: "FACT",
      text: "lock leaks",
      time: 5,
      refs: [{ path: "src/q.ts", line: 3 }],
    });
    const e2 = await s.postFinding({ author: "w1", kind: "OBSERVED", text: "slow", time: 6 });
    assert.deepEqual([e1.id, e2.id], ["w1-1", "w1-2"]);
    assert.deepEqual(
      store.entries().map((e) => e.id),
      ["w1-1", "w1-2"],
    );
    assert.deepEqual(
      s.newEntriesFor("w2").map((e) => e.id),
      ["w1-1", "w1-2"],
    );
    assert.deepEqual(s.newEntriesFor("w2"), []);
  });

  it("grants a claim with a CLAIM entry and refuses an overlapping one, telling both agents", async () => {
    const s = swarm();
    const first = await s.claim("w1", { paths: ["src/core"] }, "fix core", 0);
    assert.ok(first.granted);
    assert.equal(first.entry.kind, "CLAIM");
    const second = await s.claim("w2", { globs: ["src/**/*.ts"] }, "lint everything", 1);
    assert.ok(!second.granted);
    assert.deepEqual(second.holders, ["w1"]);
    assert.match(s.deliver("w2", "tool-call-returned")[0].text, /refused: overlaps w1's claim/);
    assert.match(s.deliver("w1", "tool-call-returned")[0].text, /w2 tried to claim/);
    assert.deepEqual(
      s.claims.active(2).map((r) => r.agent),
      ["w1"],
    );
    await assert.rejects(
      s.claim("w2", { paths: ["/etc"] }, "bad", 3),
      /Scope is not valid \(paths\.0: expected a workspace-relative path/,
    );
  });

  it("releases on finish and on expiry, with RELEASE entries", async () => {
    const s = swarm();
    const a = await s.claim("w1", { taskId: "t1" }, "t1", 0);
    await s.claim("w2", { taskId: "t2" }, "t2", 0);
    assert.ok(a.granted);
    assert.equal(s.renew("w1", 900).length, 1);
    const expired = s.claims.expire(1500);
    assert.deepEqual(
      expired.map((l) => l.claimId),
      ["w2-1"],
    );
    const released = await s.releaseAgent("w1", "finished", 1600);
    assert.deepEqual(
      released.map((e) => e.releases),
      [a.lease.claimId],
    );
    assert.equal(await s.release("nope", "x", 1), undefined);
    assert.equal((await s.claim("w2", { taskId: "t1" }, "t1 now", 1700)).granted, true);
  });

  it("routes messages after they are stored, and refuses unknown recipients without posting", async () => {
    const store = new MemoryBoardStore();
    const s = swarm("shared", store);
    await s.send("w1", "swarm", "heads up", 1);
    await s.send("w1", "w2", "look at q.ts", 2);
    assert.deepEqual(
      s.deliver("w2", "tool-call-returned").map((m) => m.text),
      ["look at q.ts"],
    );
    assert.deepEqual(
      s.deliver("w2", "iteration-start").map((m) => m.text),
      ["heads up"],
    );
    await assert.rejects(s.send("w1", "ghost", "hi", 3), /no such agent/);
    assert.equal(store.entries().length, 2);
  });

  it("private pads: grep and the feed show others' findings only to the synthesist", async () => {
    const s = swarm("private-pads");
    await s.postFinding({ author: "w1", kind: "FACT", text: "secret lock finding", time: 1 });
    await s.claim("w1", { paths: ["a.ts"] }, "a", 2);
    assert.deepEqual(s.grep("w2", { regex: "lock" }), []);
    assert.equal(s.grep("syn", { regex: "lock" }).length, 1);
    assert.deepEqual(
      s.newEntriesFor("w2").map((e) => e.kind),
      ["CLAIM"],
    );
    await s.postFinding({ author: "syn", kind: "PATCH_SUMMARY", text: "report", time: 3 });
    assert.deepEqual(
      s.newEntriesFor("w2").map((e) => e.text),
      ["report"],
    );
  });

  it("rebuilds board, claims and id counters from the store on restart", async () => {
    const store = new MemoryBoardStore();
    const s = swarm("shared", store);
    await s.postFinding({ author: "w1", kind: "FACT", text: "x", time: 1 });
    await s.claim("w1", { paths: ["a.ts"] }, "a", 2);
    const again = new SwarmBoard({ store, visibility: "shared", leaseMs: 1000 });
    again.join("w1");
    again.join("w2");
    assert.equal(again.board.size, 2);
    assert.equal((await again.claim("w2", { paths: ["a.ts"] }, "a too", 3)).granted, false);
    const next = await again.postFinding({ author: "w1", kind: "FACT", text: "y", time: 4 });
    assert.equal(next.id, "w1-3", "ids continue after the highest one stored");
  });
});
