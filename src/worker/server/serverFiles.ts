// The shared worker's files: its folder (the user's own, 0700), the per-user token (0600, made once, read by every
// client), the start lock (one server per version starts, however many clients ask at once) and the info file
// (`serve --status` and `--stop` find the pid there). A folder or token another user could read is refused with what
// to do, never used: the token is only a second lock if nobody else can read it.
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import { serverPaths, type ServerPaths } from "../../core/server/serverPaths";
import { processAlive, processIdentity, sameProcess } from "../../workspace/processAlive";

/** This machine's facts, as serverPaths wants them. */
export function thisMachinePaths(version: string, env: NodeJS.ProcessEnv = process.env): ServerPaths {
  return serverPaths(
    {
      platform: process.platform,
      uid: typeof process.getuid === "function" ? process.getuid() : -1,
      userName: os.userInfo().username,
      runtimeDir: env.XDG_RUNTIME_DIR,
      homeDir: os.homedir(),
      tmpDir: os.tmpdir(),
    },
    version,
  );
}

/** Makes the folder (0700) or checks the one there: owned by this user, no access for group or others. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === "win32") return;
  const st = lstatSync(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a folder; remove it and start Swarmboard again.`);
  if (typeof process.getuid === "function" && st.uid !== process.getuid()) {
    throw new Error(
      `${dir} belongs to another user (uid ${st.uid}); the Swarmboard server will not listen there. ` +
        "Remove it, or set XDG_RUNTIME_DIR to a folder of your own.",
    );
  }
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/** The per-user token: read, or made once with 32 random bytes (0600). */
export function readOrMakeToken(paths: ServerPaths): string {
  ensurePrivateDir(paths.dir);
  try {
    const fd = openSync(paths.tokenFile, "wx", 0o600);
    try {
      writeFileSync(fd, randomBytes(32).toString("hex"));
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  return readToken(paths);
}

/** The token a client sends; a missing token means no server was ever started here. */
export function readToken(paths: ServerPaths): string {
  if (process.platform !== "win32") {
    const st = lstatSync(paths.tokenFile);
    if ((st.mode & 0o077) !== 0 || !st.isFile()) {
      throw new Error(
        `${paths.tokenFile} can be read by other users (or is not a file); remove it and start Swarmboard again.`,
      );
    }
  }
  return readFileSync(paths.tokenFile, "utf8").trim();
}

/** Whether the process `pid` runs (a zombie, killed and not yet reaped, does not: see processAlive's file). */
export { processAlive };

/**
 * Takes the start lock for this version: true when this process may start the server. A lock whose process is gone
 * is stale and taken over; a live one means another server of this version is starting or running.
 *
 * Two servers racing must never both win. So the lock is never seen empty (it is made as a private file holding our
 * pid and then hard-linked into place, which fails if a lock exists), and a stale lock is taken over by renaming it
 * aside, which only one racer can do; the one that renamed a lock it did not judge stale (a racer's fresh one) puts
 * it back and loses.
 */
export function takeStartLock(paths: ServerPaths, lockFile = `${paths.infoFile}.lock`): boolean {
  const mine = `${lockFile}.${process.pid}`;
  // The pid, and on its second line what tells this process from a later one with the same pid (processAlive.ts).
  writeFileSync(mine, `${process.pid}\n${processIdentity(process.pid) ?? ""}`, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (linkLock(mine, lockFile)) return true;
      const holder = lockHolder(lockFile);
      if (holder === "gone") continue;
      if (holderRuns(holder)) return false;
      if (!takeOverStale(lockFile, holder)) return false;
    }
    return false;
  } finally {
    rmSync(mine, { force: true });
  }
}

function linkLock(mine: string, lockFile: string): boolean {
  try {
    linkSync(mine, lockFile);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
}

/** The lock's text ("pid" from older servers, "pid\nidentity" now), or "gone". */
function lockHolder(file: string): string | "gone" {
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

/** Renames the stale lock `holder` aside: false when a racer got there first or its lock was not the stale one. */
function takeOverStale(lockFile: string, holder: string): boolean {
  const aside = `${lockFile}.stale.${process.pid}`;
  try {
    renameSync(lockFile, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw err;
  }
  const renamed = lockHolder(aside);
  if (renamed === holder) {
    rmSync(aside, { force: true });
    return true;
  }
  // A racer's fresh lock: give it back (unless yet another racer made one meanwhile, which then holds it).
  try {
    linkSync(aside, lockFile);
  } catch {
    // Someone else holds the lock now: either way it is not ours.
  }
  rmSync(aside, { force: true });
  return false;
}

export function releaseStartLock(paths: ServerPaths, lockFile = `${paths.infoFile}.lock`): void {
  try {
    if (Number.parseInt(readFileSync(lockFile, "utf8"), 10) === process.pid) rmSync(lockFile, { force: true });
  } catch {
    // Already gone.
  }
}
