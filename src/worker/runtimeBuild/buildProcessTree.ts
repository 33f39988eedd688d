// Ending a runtime build and everything under it. The builder is spawned in a process group of its own, which npm,
// cmake, make and the compilers make starts inherit. Ninja (cmake's generator where it is installed, as on this
// project's machines) starts every compile in a process group of its own instead and passes a signal on to them
// only while it lives itself: a group signal that ninja does not survive (SIGKILL) leaves its compilers running. So
// a cancel signals the builder's group and every group found under it, first SIGTERM (each tool cleans up), then,
// for a build that has not ended after a grace period, SIGKILL to the groups found at either time.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

interface ProcessRow {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
}

/** Every process's parent and group: from /proc on Linux (no tool needed), else from ps (macOS). */
function processTable(): ProcessRow[] {
  if (process.platform === "linux") return procTable();
  const result = spawnSync("ps", ["-A", "-o", "pid=,ppid=,pgid="], { encoding: "utf8", timeout: 5_000 });
  if (result.status !== 0) return [];
  return result.stdout
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((cols) => cols.length === 3 && cols.every((n) => Number.isInteger(n) && n > 0))
    .map(([pid, ppid, pgid]) => ({ pid: pid!, ppid: ppid!, pgid: pgid! }));
}

/** /proc/<pid>/stat is "pid (comm) state ppid pgid ...", and comm may hold spaces and parentheses: read after the
 * last ")". */
function procTable(): ProcessRow[] {
  const rows: ProcessRow[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const [, ppid, pgid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      rows.push({ pid: Number(name), ppid: Number(ppid), pgid: Number(pgid) });
    } catch {
      // It ended while the table was read.
    }
  }
  return rows;
}

/** The process groups of `rootPid` (a group leader) and of every process below it; never this process's own. */
export function groupsUnder(rootPid: number): Set<number> {
  const rows = processTable();
  const own = rows.find((row) => row.pid === process.pid)?.pgid;
  const groups = new Set([rootPid]);
  const seen = new Set([rootPid]);
  const queue = [rootPid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const row of rows) {
      if (row.ppid !== parent || seen.has(row.pid)) continue;
      seen.add(row.pid);
      if (row.pgid !== own) groups.add(row.pgid);
      queue.push(row.pid);
    }
  }
  return groups;
}

function signalGroups(groups: Iterable<number>, signal: NodeJS.Signals): void {
  for (const group of groups) {
    try {
      process.kill(-group, signal);
    } catch {
      // The group is gone already.
    }
  }
}

/**
 * Stops the build whose builder is `pid`; returns a function that cancels the SIGKILL still to come (call it when
 * the builder has closed). Windows: taskkill ends the whole tree at once.
 */
export function killBuildTree(pid: number, graceMs: number): () => void {
  if (process.platform === "win32") {
    spawnSync("taskkill", ["/pid", String(pid), "/T", "/F"], { windowsHide: true });
    return () => undefined;
  }
  const first = groupsUnder(pid);
  signalGroups(first, "SIGTERM");
  const timer = setTimeout(() => signalGroups(new Set([...first, ...groupsUnder(pid)]), "SIGKILL"), graceMs);
  return () => clearTimeout(timer);
}
