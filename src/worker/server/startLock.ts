// The start lock of the user's server of one version: whoever holds it serves; the others exit ("already running")
// and attach to it. Several windows and CLI runs start servers at once, often right after the last one crashed and
// left its lock behind, so two racers must never both win:
// - The lock is never seen half-written: each racer writes a private file (its pid and its identity, see
//   processAlive.ts) and hard-links it into place, which fails when a lock exists.
// - A stale lock (its process gone, or its pid now another process's) is removed only by the racer that holds the
//   steal lock, made the same way, after reading once more that the lock is still that stale one. Nobody else removes
//   the lock while someone may hold it, so after the removal exactly one racer's link succeeds. (Renaming the stale
//   lock aside and putting back a fresh one seen by mistake, as before, left a moment without a lock in which a third
//   racer could win beside the one whose lock was being put back: two winners in about 1 of 30 rounds of eight.)
// - A stealer that died holding the steal lock leaves it: the next racer that finds its holder gone clears it.
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import type { ServerPaths } from "../../core/server/serverPaths";
import { processIdentity, sameProcess } from "../../workspace/processAlive";

/** True when this process may start the server; false when another server of this version starts or runs. */
export function takeStartLock(paths: ServerPaths, lockFile = `${paths.infoFile}.lock`): boolean {
  const mine = `${lockFile}.${process.pid}`;
  writeFileSync(mine, `${process.pid}\n${processIdentity(process.pid) ?? ""}`, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      if (link(mine, lockFile)) return true;
      const holder = read(lockFile);
      if (holder === "gone") continue;
      if (holderRuns(holder)) return false;
      const removed = removeStale(lockFile, holder, mine);
      // Another racer, alive, is removing it: it (or a racer after it) wins.
      if (removed === "another racer steals") return false;
    }
    return false;
  } finally {
    rmSync(mine, { force: true });
  }
}

export function releaseStartLock(paths: ServerPaths, lockFile = `${paths.infoFile}.lock`): void {
  const held = read(lockFile);
  if (held !== "gone" && Number.parseInt(held, 10) === process.pid) rmSync(lockFile, { force: true });
}

/** Removes the stale lock `holder` as the one racer holding the steal lock; clears a dead stealer's steal lock. */
function removeStale(lockFile: string, holder: string, mine: string): "removed" | "retry" | "another racer steals" {
  const steal = `${lockFile}.steal`;
  if (!link(mine, steal)) {
    const stealer = read(steal);
    if (stealer === "gone") return "retry";
    if (holderRuns(stealer)) return "another racer steals";
    clearDeadSteal(steal, stealer);
    return "retry";
  }
  try {
    if (read(lockFile) === holder) rmSync(lockFile, { force: true });
    return "removed";
  } finally {
    rmSync(steal, { force: true });
  }
}

/** A dead stealer's steal lock is renamed aside and removed if it is still that one; a live racer's is put back. */
function clearDeadSteal(steal: string, stealer: string): void {
  const aside = `${steal}.${process.pid}`;
  try {
    renameSync(steal, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  if (read(aside) !== stealer) {
    try {
      linkSync(aside, steal);
    } catch {
      // Another racer holds the steal lock now: either way it is not ours to clear.
    }
  }
  rmSync(aside, { force: true });
}

function link(file: string, target: string): boolean {
  try {
    linkSync(file, target);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
}

/** A lock's text ("pid" from older servers, "pid\nidentity" now), or "gone". */
function read(file: string): string | "gone" {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    throw err;
  }
}

function holderRuns(holder: string): boolean {
  const [pidText = "", identity = ""] = holder.split("\n");
  const pid = Number.parseInt(pidText, 10);
  return Number.isInteger(pid) && pid > 0 && sameProcess(pid, identity.trim() === "" ? undefined : identity.trim());
}
