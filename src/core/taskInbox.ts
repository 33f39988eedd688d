// Events arriving close together (a save storm of diagnostics, a test run) become one batch, and tasks
// already known are not offered again. Time comes from the caller: nothing here reads a clock.
import type { Task, TaskEvent } from "../protocol/tasks";
import { tasksFromEvents, type TaskSourceOptions } from "./taskSources";

export interface BatchOptions {
  /** A batch closes when no event arrived for this long (ms). */
  readonly quietMs: number;
  /** ...or when its first event has waited this long (ms), even if events keep coming. */
  readonly maxWaitMs: number;
}

export class EventBatcher {
  private events: TaskEvent[] = [];
  private firstAt = 0;
  private lastAt = 0;

  constructor(private readonly options: BatchOptions) {}

  push(event: TaskEvent, now: number): void {
    if (this.events.length === 0) this.firstAt = now;
    this.lastAt = now;
    this.events.push(event);
  }

  /** When the pending batch will be due (ms), or undefined when nothing is pending: for the caller's timer. */
  dueAt(): number | undefined {
    if (this.events.length === 0) return undefined;
    return Math.min(this.lastAt + this.options.quietMs, this.firstAt + this.options.maxWaitMs);
  }

  /** The pending events as one batch if it is due at `now`; otherwise undefined (and nothing is taken). */
  take(now: number): TaskEvent[] | undefined {
    const due = this.dueAt();
    if (due === undefined || now < due) return undefined;
    const batch = this.events;
    this.events = [];
    return batch;
  }
}

export interface InboxUpdate {
  /** Tasks never seen before. */
  readonly added: Task[];
  /** Tasks of a snapshot source (test failures, diagnostics) that are no longer reported: fixed. */
  readonly resolved: Task[];
}

/**
 * Known tasks. Test output and diagnostics are snapshots: a new one replaces the old, so what is gone is
 * resolved. TODO comments are a snapshot per file. The goal stays until `complete`.
 */
export class TaskInbox {
  private readonly open = new Map<string, Task>();
  private readonly done = new Set<string>();

  constructor(private readonly options: TaskSourceOptions = {}) {}

  accept(batch: readonly TaskEvent[]): InboxUpdate {
    const tasks = tasksFromEvents(batch, this.options);
    const resolved: Task[] = [];
    for (const scope of snapshotScopes(batch)) {
      for (const [key, known] of this.open) {
        if (scope.covers(known) && !tasks.some((t) => t.key === key)) {
          this.open.delete(key);
          resolved.push(known);
        }
      }
    }
    const added = tasks.filter((t) => !this.open.has(t.key) && !this.done.has(t.key));
    for (const t of added) this.open.set(t.key, t);
    return { added, resolved };
  }

  /** Marks a task finished: it is not offered again even if an event reports it once more. */
  complete(key: string): void {
    this.open.delete(key);
    this.done.add(key);
  }

  openTasks(): Task[] {
    return [...this.open.values()];
  }
}

function snapshotScopes(batch: readonly TaskEvent[]): Array<{ covers(task: Task): boolean }> {
  return batch.flatMap((e) => {
    switch (e.source) {
      case "test-output":
        return [{ covers: (t: Task) => t.kind === "test-failure" }];
      case "diagnostics": {
        const paths = new Set(e.files ?? e.diagnostics.map((d) => d.path));
        return [{ covers: (t: Task) => t.kind === "diagnostic" && t.refs.some((r) => paths.has(r.path)) }];
      }
      case "file-text":
        return [{ covers: (t: Task) => t.kind === "todo" && t.refs.some((r) => r.path === e.path) }];
      case "goal":
        return [];
    }
  });
}
