// Tasks the person adds to a running swarm. Each is recorded on the board as an OBSERVED entry by "user" whose
// scope names the task's id (`user-task-N`), so it is durable: a resumed swarm lists it among its open tasks
// like the goal's, and the finished ones drop out the same way (a claim released as finished). How a record
// reads is src/core/userTaskRecords.ts (the panel lists the tasks from it too).
import { userTaskIdPrefix, userTaskRecordPrefix, userTasksOnBoard } from "../../core/userTaskRecords";
import type { BoardEntry } from "../../protocol/board";

/** The next task's id: one more than the tasks the board already holds (a resumed swarm goes on counting). */
export function nextUserTaskId(entries: readonly BoardEntry[]): string {
  return `${userTaskIdPrefix}${userTasksOnBoard(entries).length + 1}`;
}

/** The board's record of a new task. */
export function userTaskRecordText(text: string): string {
  return `${userTaskRecordPrefix}${text}`;
}

/** What every running agent is told (a swarm message, read at its next step). */
export function newTaskMessage(taskId: string, text: string): string {
  return (
    `New open task [${taskId}]: ${text}. If you are free, claim it by its id ` +
    `(scope {"taskId": "${taskId}"}) before you work on it; check the roster first, someone may have.`
  );
}
