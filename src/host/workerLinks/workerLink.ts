// How this window reaches a worker: a private child process it forked (the worker dies with the window), or the
// user's shared worker on its local socket (`swarmboard serve`: it outlives the window, so a reload leaves its
// swarms running). The supervisor (src/host/workerProcess.ts) treats both alike: a peer to talk to, an end to watch.
import type { RpcPeer } from "../../core/rpc/rpcPeer";

export interface WorkerEnd {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** For the log and the state: "code 0", "signal SIGKILL", "the shared worker closed the connection". */
  readonly how: string;
  /**
   * The shared worker's server, started for this window, exited before it listened (or never listened), in one line
   * for the person: starting it again would end the same way, so the supervisor says why and waits for the person.
   */
  readonly startFailed?: string;
}

export interface WorkerLink {
  readonly kind: "private" | "shared";
  readonly peer: RpcPeer;
  /** The worker's process id once known (tests kill it to exercise supervision). */
  readonly pid: number | undefined;
  /** Called once when the link ends: the private worker exited, or the connection to the shared one closed. */
  onEnded(listener: (end: WorkerEnd) => void): void;
  /** This window is done with the worker: the private one is stopped; the shared one only loses this client. */
  close(): void;
}

export interface LinkLog {
  log(level: "info" | "warn" | "error", message: string): void;
}

/** Log lines a worker wrote, one entry per non-empty line. */
export function logLines(log: LinkLog, level: "info" | "warn", text: string): void {
  for (const line of text.split(/\r?\n/)) if (line.trim() !== "") log.log(level, `worker: ${line}`);
}
