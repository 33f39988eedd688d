// Where the one worker of a user on a machine listens, and where its token and pid file live. Pure: the caller
// passes what the machine says (platform, uid, folders), so every client and the server compute the same paths.
// The folder is the user's own (mode 0700, made by the first one to need it): on Linux and macOS that, with the
// socket's 0600 mode, is what keeps other users out before the token is even read. One socket per version: a client
// of another version never talks to an old server, it starts its own beside it (the old one drains).

export interface MachineFacts {
  readonly platform: string;
  /** The user's numeric id; -1 where the OS has none (Windows). */
  readonly uid: number;
  readonly userName: string;
  /** `XDG_RUNTIME_DIR` when set (a per-user, per-boot folder on Linux). */
  readonly runtimeDir: string | undefined;
  readonly homeDir: string;
  readonly tmpDir: string;
}

export interface ServerPaths {
  /** The user's folder that holds the socket, the token and the pid files (mode 0700). */
  readonly dir: string;
  /** Where the server listens: a Unix socket path, or a named pipe on Windows. */
  readonly socket: string;
  /** The per-user token a client sends first (mode 0600). */
  readonly tokenFile: string;
  /** The running server's facts (pid, version, socket), for `serve --status` and `--stop`. */
  readonly infoFile: string;
  /** Where a started server's output goes (appended: each server that starts adds to it). */
  readonly logFile: string;
}

/** Unix socket paths longer than this are refused by the OS (sun_path is 104 bytes on macOS, 108 on Linux). */
export const maxSocketPathChars = 100;

/** A version as a file-name part: `0.1.0` stays, anything else becomes `_`. */
function versionPart(version: string): string {
  return version.replace(/[^0-9A-Za-z.-]/g, "_");
}

function join(dir: string, name: string, sep: string): string {
  return dir.endsWith(sep) ? `${dir}${name}` : `${dir}${sep}${name}`;
}

export function serverPaths(machine: MachineFacts, version: string): ServerPaths {
  const v = versionPart(version);
  if (machine.platform === "win32") {
    const dir = join(join(machine.homeDir, ".swarmboard", "\\"), "server", "\\");
    const user = machine.userName.replace(/[^0-9A-Za-z_-]/g, "_");
    return {
      dir,
      socket: `\\\\.\\pipe\\swarmboard-${user}-${v}`,
      tokenFile: join(dir, "token", "\\"),
      infoFile: join(dir, `server-${v}.json`, "\\"),
      logFile: join(dir, `server-${v}.log`, "\\"),
    };
  }
  const preferred =
    machine.runtimeDir !== undefined && machine.runtimeDir !== ""
      ? join(machine.runtimeDir, "swarmboard", "/")
      : join(join(machine.homeDir, ".cache", "/"), "swarmboard/server", "/");
  const socketName = `worker-${v}.sock`;
  // A deep home folder would make the socket path too long for the OS: fall back to the temporary folder, in a
  // folder named for the uid (still 0700, still the user's own).
  const dir =
    join(preferred, socketName, "/").length <= maxSocketPathChars
      ? preferred
      : join(machine.tmpDir, `swarmboard-${machine.uid}`, "/");
  return {
    dir,
    socket: join(dir, socketName, "/"),
    tokenFile: join(dir, "token", "/"),
    infoFile: join(dir, `server-${v}.json`, "/"),
    logFile: join(dir, `server-${v}.log`, "/"),
  };
}
