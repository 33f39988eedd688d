// Whether a process still runs, for the checks that judge a pid in a file (the server's start lock, a swarm record's
// owner). Signal 0 only asks whether the pid exists, and a zombie (a process that has exited, not yet reaped) still
// does: a server SIGKILLed just after its client exited (before that client reaped it) stays one until init reaps
// it, which takes 1.5-2 s on a test machine and may take forever under an init that reaps nothing. Judged alive
// there, its lock made the next server give up ("already running") and the client wait for a socket that never came.
// On Linux, /proc tells a zombie by its state; elsewhere signal 0 is all there is.
import { readFileSync } from "node:fs";

/** Whether `pid` runs: it exists (another user's counts: EPERM) and, where /proc says so, is no zombie. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  return !isZombie(pid);
}

/** `/proc/<pid>/stat` reads "pid (comm) state ..."; comm may hold spaces and parentheses, so read after the last ")". */
function isZombie(pid: number): boolean {
  if (process.platform !== "linux") return false;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return false; // no /proc, or reaped meanwhile (the next look says so): signal 0's answer stands
  }
  const state = stat.slice(stat.lastIndexOf(")") + 2).charAt(0);
  return state === "Z" || state === "X";
}
