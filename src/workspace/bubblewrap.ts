// Bubblewrap (Debian `bubblewrap`, the `bwrap` binary): commands see only the toolchain, a private home and
// /tmp, the git dir read-only and their worktree writable (sandboxMounts.ts), with no network (`--unshare-net`).
// Installed is not enough: containers often forbid the user namespaces bwrap needs, so a probe runs a real
// sandboxed command once and the answer (with the reason when it fails) is cached for the process.
import { execFile } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { mountArgs, sandboxMounts, type SandboxOptions } from "./sandboxMounts";

export type { SandboxOptions };

export type BubblewrapProbe =
  | { readonly usable: true; readonly binary: string }
  | { readonly usable: false; readonly installed: boolean; readonly reason: string };

/** Where bwrap is looked for (a fixed list: never a PATH lookup, which the user's environment could redirect). */
export const BWRAP_CANDIDATES = ["/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap"];
let cached: Promise<BubblewrapProbe> | undefined;

/** Runs a probe: `code` -1 when `file` does not exist. */
export function runProbe(file: string, args: string[]): Promise<{ code: number; output: string }> {
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

/**
 * Why there is no sandbox on a platform bubblewrap does not exist on (it needs Linux namespaces), or undefined on
 * Linux. A macOS sandbox would come next as a Seatbelt profile (sandbox-exec), as other coding agents use.
 */
export function platformWithoutSandbox(platform: NodeJS.Platform): string | undefined {
  if (platform === "linux") return undefined;
  return (
    `no sandbox on this platform (${platform}): the command sandbox is bubblewrap, which exists only on Linux, ` +
    "so every command asks for approval"
  );
}

/** How agent commands run here, in one line for the swarm's start (CLI, panel): sandboxed, or why not. */
export function commandsLine(probe: BubblewrapProbe): string {
  if (probe.usable) return "agent commands run in the sandbox (bubblewrap: their worktree only, no network)";
  return probe.reason.startsWith("no sandbox")
    ? probe.reason
    : `no sandbox, so every agent command asks for approval: ${probe.reason}`;
}

/** Whether commands can run inside bubblewrap here (cached after the first call). */
export function probeBubblewrap(platform: NodeJS.Platform = process.platform): Promise<BubblewrapProbe> {
  const absent = platformWithoutSandbox(platform);
  if (absent !== undefined) return Promise.resolve({ usable: false, installed: false, reason: absent });
  cached ??= (async (): Promise<BubblewrapProbe> => {
    for (const binary of BWRAP_CANDIDATES) {
      const res = await runProbe(binary, [...sandboxArgs(os.tmpdir()), "--", "/bin/sh", "-c", "echo sandboxed"]);
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
 * Arguments for bwrap: the mount list of sandboxMounts.ts on an empty root, fresh /dev and /proc, no network, its
 * own pid namespace and session, killed with its parent (the command's supervisor), started in the worktree.
 */
export function sandboxArgs(worktree: string, options: SandboxOptions = {}): string[] {
  return [
    ...["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--new-session"],
    ...mountArgs(sandboxMounts(worktree, options)),
    ...["--dev", "/dev", "--proc", "/proc", "--chdir", worktree],
  ];
}

/** The command's private home inside the sandbox: an empty tmpfs over the real home's path. */
export function sandboxHome(options: SandboxOptions = {}): string {
  const home = options.home ?? os.homedir();
  return home && home !== "/" && path.isAbsolute(home) ? home : "/tmp";
}
