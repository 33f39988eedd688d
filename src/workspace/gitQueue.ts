// One queue per repository: every git operation that takes a lock (index, refs, worktrees, merges) runs
// through it, one at a time, so agents of one swarm never race each other for `index.lock` or a ref lock.
// Locks held by someone else (the user's own git, VS Code's git view) are retried a bounded number of times
// with backoff, then reported, never waited on forever.
import { realpathSync } from "node:fs";
import { GitCommandError } from "./gitExec";

export interface LockRetryPolicy {
  /** Attempts in all, the first included. */
  readonly attempts: number;
  /** Delay before the second attempt; doubles after each, up to maxDelayMs. */
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
}

export const defaultLockRetry: LockRetryPolicy = { attempts: 8, firstDelayMs: 25, maxDelayMs: 800 };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `fn` again while it fails because a git lock file was busy, at most `policy.attempts` times. */
export async function withLockRetry<T>(fn: () => Promise<T>, policy: LockRetryPolicy = defaultLockRetry): Promise<T> {
  let delay = policy.firstDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof GitCommandError) || !err.isLockBusy || attempt >= policy.attempts) throw err;
      await sleep(delay);
      delay = Math.min(delay * 2, policy.maxDelayMs);
    }
  }
}

export class GitQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private running = 0;
  private waiting = 0;

  constructor(readonly commonDir: string) {}

  /** Operations queued or running: zero means nobody in this process holds a git lock of this repository. */
  get pending(): number {
    return this.running + this.waiting;
  }

  /** Runs `op` after every operation queued before it; a failure of one does not stop the next. */
  run<T>(op: () => Promise<T>): Promise<T> {
    this.waiting++;
    const result = this.tail.then(async () => {
      this.waiting--;
      this.running++;
      try {
        return await op();
      } finally {
        this.running--;
      }
    });
    this.tail = result.catch(() => undefined);
    return result;
  }
}

const queues = new Map<string, GitQueue>();

/** The process-wide queue of the repository whose common git directory is `commonDir`. */
export function gitQueueFor(commonDir: string): GitQueue {
  const key = realpathSync(commonDir);
  let queue = queues.get(key);
  if (!queue) {
    queue = new GitQueue(key);
    queues.set(key, queue);
  }
  return queue;
}
