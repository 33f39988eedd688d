import { strict as assert } from "assert";
import { MemoryBoardStore } from "../../../src/core/boardStore";
import { SwarmBoard } from "../../../src/core/swarmBoard";
import type { Visibility } from "../../../src/protocol/board";

/** w1 with a sub-agent c1 (and its sub-agent g1) and a second sub-agent c2; w2 another agent; syn the synthesist. */
function family(visibility: Visibility): SwarmBoard {
  const s = new SwarmBoard({ store: new MemoryBoardStore(), visibility, leaseMs: 1000 });
  s.join("w1");
  s.join("w2");
  s.join("syn", { isSynthesist: true });
  s.join("c1", { isSynthesist: false, parent: "w1" });
  s.join("c2", { isSynthesist: false, parent: "w1" });
  s.join("g1", { isSynthesist: false, parent: "c1" });
  return s;
}

describe("sub-agents write on their parent's pad (relay)", () => {
  it("with private pads, a depth-2 finding reaches its parent, its parent's sibling and the family's first agent", async () => {
    const s = family("private-pads");
    await s.postFinding({ author: "g1", kind: "FACT", text: "the cache key ignores the locale", time: 1 });
    for (const viewer of ["c1", "c2", "w1", "syn"])
      assert.deepEqual(
        s.newEntriesFor(viewer).map((e) => e.author),
        ["g1"],
        `${viewer} sees it as it lands`,
      );
    assert.deepEqual(s.newEntriesFor("w2"), [], "another agent's pad stays its own");
    assert.equal(s.grep("c2", { regex: "locale" }).length, 1, "grep_board finds it for the parent's sibling");
    assert.equal(s.grep("w2", { regex: "locale" }).length, 0);
    assert.equal(s.padOf("g1"), "w1");
    assert.equal(s.padOf("w2"), "w2");
  });

  it("with private pads, what the family's first agent posts reaches its sub-agents too", async () => {
    const s = family("private-pads");
    await s.postFinding({ author: "w1", kind: "OBSERVED", text: "start with the parser", time: 1 });
    assert.deepEqual(
      s.newEntriesFor("g1").map((e) => e.text),
      ["start with the parser"],
    );
    assert.deepEqual(s.newEntriesFor("w2"), []);
  });

  it("with a shared board, a sub-agent's finding reaches every agent", async () => {
    const s = family("shared");
    await s.postFinding({ author: "g1", kind: "FACT", text: "found", time: 1 });
    for (const viewer of ["c2", "w1", "w2", "syn"]) assert.equal(s.newEntriesFor(viewer).length, 1, viewer);
  });
});
