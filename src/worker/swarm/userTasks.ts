// Tasks the person adds to a running swarm. Each is recorded on the board as an OBSERVED entry by "user" whose
// scope names the task's id (`user-task-N`), so it is durable: a resumed swarm lists it among its open tasks
// like the goal's, and the finished ones drop out the same way (a claim released as finished).
import type { BoardEntry } from "../../protocol/board";
import { userAuthor } from "../../protocol/messages";
import type { Task } from "../../protocol/tasks";

const idPrefix = "user-task-";
const recordPrefix = "Task added by the person: ";

function isTaskRecord(entry: BoardEntry): boolean {
  return (
    entry.author === userAuthor &&
    entry.kind === "OBSERVED" &&
    (entry.scope.taskId?.startsWith(idPrefix) ?? false) &&
    entry.text.startsWith(recordPrefix)
  );
}

/** Every task the person added, in the order they were added. */
export function userTasksOnBoard(entries: readonly BoardEntry[]): Task[] {
  return entries.filter(isTaskRecord).map((entry) => {
    const text = entry.text.slice(recordPrefix.length);
    const id = entry.scope.taskId!;
    return { id, kind: "user", title: text.replace(/\s+/g, " "), detail: text, refs: [], key: id };
  });
}

/** The next task's id: one more than the tasks the board already holds (a resumed swarm goes on counting). */
export function nextUserTaskId(entries: readonly BoardEntry[]): string {
  return `${idPrefix}${userTasksOnBoard(entries).length + 1}`;
}

/** The board's record of a new task. */
export function userTaskRecordText(text: string): string {
  return `${recordPrefix}${text}`;
}

/** What every running agent is told (a swarm message, read at its next step). */
export function newTaskMessage(taskId: string, text: string): string {
  return (
    `New open task [${taskId}]: ${text}. If you are free, claim it by its id ` +
    `(scope {"taskId": "${taskId}"}) before you work on it; check the roster first, someone may have.`
  );
}
