// The shared worker's files: its folder (the user's own, 0700), the per-user token (0600, made once, read by every
// client), the start lock (one server per version starts, however many clients ask at once) and the info file
// (`serve --status` and `--stop` find the pid there). A folder or token another user could read is refused with what
// to do, never used: the token is only a second lock if nobody else can read it.
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { serverPaths, type ServerPaths } from "../../core/server/serverPaths";
import { processAlive } from "../../workspace/processAlive";

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
