// Tasks the person added to a running swarm, as the board records them: an OBSERVED entry by "user" whose scope
// names the task's id (`user-task-N`). The worker writes and reads them (src/worker/swarm/userTasks.ts); the
// panel lists them with where each stands, read from the same board (claimed by whom, finished).
import type { BoardEntry } from "../protocol/board";
import { userAuthor } from "../protocol/messages";
import type { Task } from "../protocol/tasks";
import { finishedReleasePrefix } from "./finishedTasks";

export const userTaskIdPrefix = "user-task-";
export const userTaskRecordPrefix = "Task added by the person: ";

function isTaskRecord(entry: BoardEntry): boolean {
  return (
    entry.author === userAuthor &&
    entry.kind === "OBSERVED" &&
    (entry.scope.taskId?.startsWith(userTaskIdPrefix) ?? false) &&
    entry.text.startsWith(userTaskRecordPrefix)
  );
}

/** Every task the person added, in the order they were added. */
export function userTasksOnBoard(entries: readonly BoardEntry[]): Task[] {
  return entries.filter(isTaskRecord).map((entry) => {
    const text = entry.text.slice(userTaskRecordPrefix.length);
    const id = entry.scope.taskId!;
    return { id, kind: "user", title: text.replace(/\s+/g, " "), detail: text, refs: [], key: id };
  });
}

export interface UserTaskState {
  readonly id: string;
  readonly title: string;
  /** open: nobody holds it (never claimed, or released unfinished); claimed: an agent works on it. */
  readonly state: "open" | "claimed" | "finished";
  /** Who holds it, or who finished it. */
  readonly agent?: string;
}

/** Each added task with its newest claim's fate on the board. */
export function userTaskStates(entries: readonly BoardEntry[]): UserTaskState[] {
  const releases = new Map(entries.filter((e) => e.kind === "RELEASE" && e.releases).map((e) => [e.releases!, e]));
  return userTasksOnBoard(entries).map((task) => {
    const claim = entries.filter((e) => e.kind === "CLAIM" && e.scope.taskId === task.id).pop();
    const base = { id: task.id, title: task.title };
    if (claim === undefined) return { ...base, state: "open" };
    const release = releases.get(claim.id);
    if (release === undefined) return { ...base, state: "claimed", agent: claim.author };
    return release.text.startsWith(finishedReleasePrefix)
      ? { ...base, state: "finished", agent: claim.author }
      : { ...base, state: "open" };
  });
}
