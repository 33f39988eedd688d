// Which tasks a swarm already finished, read from its board: a task whose claim was released by an agent
// that finished its work (release reason `finished: ...`). A resumed swarm does not offer them again.
import type { BoardEntry } from "../protocol/board";

export const finishedReleasePrefix = "finished: ";

export function finishedTaskIds(entries: readonly BoardEntry[]): Set<string> {
  const claims = new Map(
    entries.filter((e) => e.kind === "CLAIM" && e.scope.taskId).map((e) => [e.id, e.scope.taskId!]),
  );
  const done = new Set<string>();
  for (const e of entries) {
    if (e.kind !== "RELEASE" || e.releases === undefined || !e.text.startsWith(finishedReleasePrefix)) continue;
    const task = claims.get(e.releases);
    if (task !== undefined) done.add(task);
  }
  return done;
}
