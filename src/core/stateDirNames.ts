// Names for a swarm's state folder where the swarm's id is not known yet (the worker gives it): the launch time,
// safe in a file name, and for folders made side by side a short random tail so two launches in one millisecond differ.

/** The time as it can stand in a file name: 2026-12-03T15-26-54-123Z. */
export function fileTimeStamp(now: Date = new Date()): string {
  return now.toISOString().replace(/[:.]/g, "-");
}

/** A fresh state folder name: the launch time and six random characters. */
export function newStateDirName(now: Date = new Date()): string {
  return `${fileTimeStamp(now)}-${Math.random().toString(36).slice(2, 8)}`;
}
