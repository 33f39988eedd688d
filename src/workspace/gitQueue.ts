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

interface QueueEntry {
  readonly exclusive: boolean;
  readonly start: () => void;
}

/**
 * The repository's queue. Exclusive operations (anything touching shared refs: the integration branch, branch
 * creation and deletion, worktree add/remove, merges) run alone. Shared operations touch only one agent's own
 * worktree, index and branch (a commit), so they may overlap each other, but never an exclusive one.
 * First come, first served: a shared operation that arrives after a waiting exclusive one waits behind it.
 */
export class GitQueue {
  private readonly waiting: QueueEntry[] = [];
  private sharedRunning = 0;
  private exclusiveRunning = false;

  constructor(readonly commonDir: string) {}

  /** Operations queued or running: zero means nobody in this process holds a git lock of this repository. */
  get pending(): number {
    return this.waiting.length + this.sharedRunning + (this.exclusiveRunning ? 1 : 0);
  }

  /** Runs `op` alone, after everything queued before it; a failure of one does not stop the next. */
  run<T>(op: () => Promise<T>): Promise<T> {
    return this.enqueue(true, op);
  }

  /** Runs `op` alongside other shared operations, never alongside an exclusive one. */
  runShared<T>(op: () => Promise<T>): Promise<T> {
    return this.enqueue(false, op);
  }

  private enqueue<T>(exclusive: boolean, op: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        if (exclusive) this.exclusiveRunning = true;
        else this.sharedRunning++;
        op()
          .then(resolve, reject)
          .finally(() => {
            if (exclusive) this.exclusiveRunning = false;
            else this.sharedRunning--;
            this.pump();
          });
      };
      this.waiting.push({ exclusive, start });
      this.pump();
    });
  }

  private pump(): void {
    while (this.waiting.length > 0 && !this.exclusiveRunning) {
      const head = this.waiting[0];
      if (head.exclusive && this.sharedRunning > 0) return;
      this.waiting.shift();
      head.start();
      if (head.exclusive) return;
    }
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
