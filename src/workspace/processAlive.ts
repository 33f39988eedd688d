// Whether a process still runs, for the checks that judge a pid in a file (the server's start lock, a swarm record's
// owner). Two ways a pid in a file lies:
// - A zombie (a process that has exited, not yet reaped) still answers signal 0: a server SIGKILLed just after its
//   client exited stays one until init reaps it (1.5-2 s on a test machine; forever under an init that reaps
//   nothing). Judged alive, its lock made the next server give up ("already running") and the client wait for a
//   socket that never came. On Linux /proc tells a zombie by its state.
// - A file that outlived its process (a crash, a power cut) names a pid that another process may hold now: after a
//   reboot (a lock under ~/.cache survives one; pids at boot repeat) or once pids wrap around. So the writer also
//   records its identity, the pid's start as the system states it (Linux: the boot's id and the start tick in /proc;
//   macOS and the BSDs: `ps`'s start time); a live pid whose identity differs is another process. Windows: signal 0.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Whether `pid` runs: it exists (another user's counts: EPERM) and, where /proc says so, is no zombie. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  const state = procStat(pid)?.state;
  return state !== "Z" && state !== "X";
}

/**
 * Whether `pid` is still the process whose identity (processIdentity, when it wrote the file) is `identity`: it runs
 * and, when both identities are known, they are the same. Without one (an older file, a system that has none) the
 * pid alone decides, as before.
 */
export function sameProcess(pid: number, identity: string | undefined): boolean {
  if (!processAlive(pid)) return false;
  if (identity === undefined) return true;
  const now = processIdentity(pid);
  return now === undefined || now === identity;
}

/** What tells the process `pid` from a later one with the same pid; undefined where the system cannot say. */
export function processIdentity(pid: number): string | undefined {
  if (process.platform === "linux") {
    const started = procStat(pid)?.startTicks;
    return started === undefined ? undefined : `${bootId()}:${started}`;
  }
  return process.platform === "win32" ? undefined : psIdentity(pid);
}

/**
 * macOS, the BSDs (and any system with a POSIX `ps`): the start time `ps` reports, to the second, fixed when the
 * process started whatever the clock does later. Undefined when `ps` is missing or the pid does not run.
 */
export function psIdentity(pid: number): string | undefined {
  const ps = spawnSync("ps", ["-o", "lstart=", "-p", String(pid)], { encoding: "utf8", timeout: 5_000 });
  const started = ps.status === 0 ? ps.stdout.trim() : "";
  return started === "" ? undefined : `ps:${started}`;
}

let cachedBootId: string | undefined;

/** This boot's id (the same for every process until the next boot); empty where the kernel does not say. */
function bootId(): string {
  if (cachedBootId === undefined) {
    try {
      cachedBootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    } catch {
      cachedBootId = "";
    }
  }
  return cachedBootId;
}

/**
 * `/proc/<pid>/stat` reads "pid (comm) state ppid ...": comm may hold spaces and parentheses, so the fields are read
 * after the last ")"; the start time (in clock ticks after boot) is field 22. Undefined without /proc, or once reaped.
 */
function procStat(pid: number): { state: string; startTicks: string | undefined } | undefined {
  if (process.platform !== "linux") return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0] ?? "", startTicks: fields[19] };
}
