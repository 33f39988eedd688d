// Where each task the person added stands, read from the board: open until claimed, claimed while an agent holds
// it, open again when released unfinished, finished when released as finished. Entries that only look like task
// records (another author, another kind, no task id) are not tasks.
import assert from "node:assert/strict";
import { userTaskStates, userTasksOnBoard } from "../../../src/core/userTaskRecords";
import { boardEntrySchema, type BoardEntry, type BoardEntryInput } from "../../../src/protocol/board";

let time = 1_000;
const entry = (e: Omit<BoardEntryInput, "time">): BoardEntry => boardEntrySchema.parse({ ...e, time: time++ });
const added = (n: number, text: string) =>
  entry({
    id: `e-task-${n}`,
    kind: "OBSERVED",
    author: "user",
    text: `Task added by the person: ${text}`,
    scope: { paths: [], globs: [], taskId: `user-task-${n}` },
  });
const claim = (id: string, agent: string, task: string) =>
  entry({ id, kind: "CLAIM", author: agent, text: "mine", scope: { paths: [], globs: [], taskId: task } });
const release = (id: string, agent: string, of: string, text: string) =>
  entry({ id, kind: "RELEASE", author: agent, text, releases: of });

describe("userTaskStates", () => {
  it("follows each added task through claim, release and finish", () => {
    const entries = [
      added(1, "Add a test for the median\nof an empty list"),
      added(2, "Document median"),
      added(3, "Rename mean"),
      claim("c1", "agent-1", "user-task-1"),
      claim("c2", "agent-2", "user-task-2"),
      release("r2", "agent-2", "c2", "finished: documented"),
      claim("c3", "agent-3", "user-task-3"),
      release("r3", "agent-3", "c3", "gave up: out of room"),
    ];
    assert.deepEqual(userTaskStates(entries), [
      { id: "user-task-1", title: "Add a test for the median of an empty list", state: "claimed", agent: "agent-1" },
      { id: "user-task-2", title: "Document median", state: "finished", agent: "agent-2" },
      { id: "user-task-3", title: "Rename mean", state: "open" },
    ]);
  });

  it("reads the newest claim of a task that was claimed again", () => {
    const entries = [
      added(1, "Fix the build"),
      claim("c1", "agent-1", "user-task-1"),
      release("r1", "agent-1", "c1", "stopped"),
      claim("c2", "agent-2", "user-task-1"),
    ];
    assert.deepEqual(userTaskStates(entries), [
      { id: "user-task-1", title: "Fix the build", state: "claimed", agent: "agent-2" },
    ]);
  });

  it("counts only the person's task records", () => {
    const lookalikes = [
      entry({
        id: "x1",
        kind: "OBSERVED",
        author: "agent-1",
        text: "Task added by the person: no",
        scope: { taskId: "user-task-9" },
      }),
      entry({
        id: "x2",
        kind: "FACT",
        author: "user",
        text: "Task added by the person: no",
        scope: { taskId: "user-task-8" },
      }),
      entry({ id: "x3", kind: "OBSERVED", author: "user", text: "Task added by the person: no" }),
      entry({ id: "x4", kind: "OBSERVED", author: "user", text: "a note", scope: { taskId: "user-task-7" } }),
    ];
    assert.deepEqual(userTasksOnBoard(lookalikes), []);
    assert.deepEqual(
      userTaskStates([...lookalikes, added(1, "Real one")]).map((t) => t.id),
      ["user-task-1"],
    );
  });
});
