// Takeover read from the board: which tasks the watchdog released from an agent and nobody finished or claimed
// again, with the notes that agent left, and the brief of the agent that takes over.
import assert from "node:assert/strict";
import { MemoryBoardStore } from "../../../src/core/boardStore";
import { SwarmBoard } from "../../../src/core/swarmBoard";
import { handoverText, takeoverBrief, tasksToTakeOver } from "../../../src/core/takeover";

async function boardWithStall(): Promise<SwarmBoard> {
  const board = new SwarmBoard({ store: new MemoryBoardStore(), visibility: "shared", leaseMs: 60_000 });
  board.join("a1");
  board.join("a2");
  await board.claim("a1", { taskId: "t1" }, "fix median", 1);
  await board.postFinding({ author: "a1", kind: "OBSERVED", text: "sort() compares strings", time: 2 });
  await board.postFinding({ author: "a1", kind: "OBSERVED", text: "nudge: same call 3 times", time: 3 });
  await board.releaseAgent("a1", "stalled: list_dir with the same arguments 3 times", 4);
  return board;
}

describe("core: takeover of a task the watchdog released", () => {
  it("finds the task with the agent's claim text and findings, not the watchdog's own lines", async () => {
    const board = await boardWithStall();
    const [h, ...rest] = tasksToTakeOver(board.board.entries(), "a1");
    assert.deepEqual(rest, []);
    assert.deepEqual(h, {
      taskId: "t1",
      from: "a1",
      reason: "list_dir with the same arguments 3 times",
      notes: ["claimed it: fix median", "OBSERVED: sort() compares strings"],
    });
    const brief = takeoverBrief("You are a3, a worker.", h!);
    assert.match(brief, /^You are a3, a worker\.\nYou take over task \[t1\] from a1/);
    assert.match(brief, /\n- OBSERVED: sort\(\) compares strings\n/);
    assert.match(handoverText(h!, "a3"), /^hand-over: task t1 goes from a1 .* to a3, with its notes: claimed it/);
  });

  it("hands nothing over once the task is claimed again, finished, or released for another reason", async () => {
    const again = await boardWithStall();
    await again.claim("a2", { taskId: "t1" }, "mine now", 5);
    assert.deepEqual(tasksToTakeOver(again.board.entries(), "a1"), []);
    const finished = new SwarmBoard({ store: new MemoryBoardStore(), visibility: "shared", leaseMs: 60_000 });
    finished.join("a1");
    await finished.claim("a1", { taskId: "t1" }, "fix", 1);
    await finished.releaseAgent("a1", "finished: done", 2);
    assert.deepEqual(tasksToTakeOver(finished.board.entries(), "a1"), []);
  });
});
