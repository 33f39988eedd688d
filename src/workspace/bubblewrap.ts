// Bubblewrap (Debian `bubblewrap`, the `bwrap` binary): commands run with the whole file system read-only,
// the agent's worktree and a private /tmp writable, the user's home hidden, and no network (`--unshare-net`).
// Installed is not enough: containers often forbid the user namespaces bwrap needs, so a probe runs a real
// sandboxed command once and the answer (with the reason when it fails) is cached for the process.
import { execFile } from "node:child_process";
import os from "node:os";
import path from "node:path";

export type BubblewrapProbe =
  | { readonly usable: true; readonly binary: string }
  | { readonly usable: false; readonly installed: boolean; readonly reason: string };

const CANDIDATES = ["/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap"];
let cached: Promise<BubblewrapProbe> | undefined;

function run(file: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000 }, (err, stdout, stderr) => {
      const code = err
        ? typeof (err as NodeJS.ErrnoException).code === "number"
          ? Number((err as NodeJS.ErrnoException).code)
          : 1
        : 0;
      resolve({
        code: err && (err as NodeJS.ErrnoException).code === "ENOENT" ? -1 : code,
        output: `${stdout}${stderr}`.trim(),
      });
    });
  });
}

/** Whether commands can run inside bubblewrap here (cached after the first call). */
export function probeBubblewrap(): Promise<BubblewrapProbe> {
  cached ??= (async (): Promise<BubblewrapProbe> => {
    for (const binary of CANDIDATES) {
      const res = await run(binary, [...sandboxArgs(os.tmpdir()), "--", "/bin/sh", "-c", "echo sandboxed"]);
      if (res.code === -1) continue;
      if (res.code === 0 && res.output.includes("sandboxed")) return { usable: true, binary };
      return {
        usable: false,
        installed: true,
        reason: `${binary} is installed but cannot create its sandbox here: ${res.output.slice(0, 300) || `exit ${res.code}`}`,
      };
    }
    return {
      usable: false,
      installed: false,
      reason:
        "bubblewrap (bwrap) is not installed: install the Debian/Ubuntu package 'bubblewrap' to let allowed commands run without approval",
    };
  })();
  return cached;
}

/**
 * Arguments for bwrap: read-only root, fresh /dev, /proc and /tmp, the home folder hidden, no network, its own
 * pid namespace, killed with its parent; then the writable worktree, the repository's git dir read-only (so
 * `git log` works inside) and paths inside the worktree kept read-only (its `.git` link).
 */
export function sandboxArgs(worktree: string, options: SandboxOptions = {}): string[] {
  const home = options.home ?? os.homedir();
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", "/var/tmp"];
  // Hide the home folder (keys, tokens, shell histories); binds below re-expose only what commands need.
  if (home && home !== "/" && path.isAbsolute(home)) args.push("--tmpfs", home);
  args.push("--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--new-session");
  for (const p of options.readOnlyBinds ?? []) args.push("--ro-bind-try", p, p);
  args.push("--bind", worktree, worktree);
  for (const p of options.readOnlyInside ?? []) args.push("--ro-bind-try", p, p);
  args.push("--chdir", worktree, "--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp");
  return args;
}

export interface SandboxOptions {
  /** The folder to hide (default: the current user's home). */
  readonly home?: string;
  /** Folders visible read-only even if under the hidden home (the repository's common git dir). */
  readonly readOnlyBinds?: readonly string[];
  /** Paths inside the worktree that stay read-only (its `.git` link). */
  readonly readOnlyInside?: readonly string[];
}
