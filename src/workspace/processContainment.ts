// A command the person approved to run outside the sandbox keeps their filesystem, devices and network (that is
// what they approved) but not the machine's processes: bubblewrap binds the host's root as it is and gives the
// command a new pid namespace with its own /proc, killed with its parent (the command's supervisor). So `setsid`,
// double forks and daemons end with the command, its timeout and the worker, and /proc (`ps eww -A`) shows only
// the command's own processes, never another process's environment. Where bwrap cannot do this (other platforms,
// no user namespaces) the command runs as before, under the process-group supervisor only, and the approval
// prompt says so.
import os from "node:os";
import { BWRAP_CANDIDATES, runProbe } from "./bubblewrap";

export type ContainmentProbe =
  { readonly usable: true; readonly binary: string } | { readonly usable: false; readonly reason: string };

let cached: Promise<ContainmentProbe> | undefined;

/** bwrap's arguments: the host's root unchanged (devices too), a fresh /proc in a new pid namespace. */
export function containmentArgs(cwd: string): string[] {
  return [
    ...["--dev-bind", "/", "/", "--proc", "/proc"],
    ...["--unshare-pid", "--die-with-parent", "--new-session", "--chdir", cwd],
  ];
}

/** Whether approved unsandboxed commands can get their own pid namespace here (cached after the first call). */
export function probeContainment(): Promise<ContainmentProbe> {
  cached ??= (async (): Promise<ContainmentProbe> => {
    const reasons: string[] = [];
    for (const binary of BWRAP_CANDIDATES) {
      const res = await runProbe(binary, [...containmentArgs(os.tmpdir()), "--", "/bin/sh", "-c", "echo contained"]);
      if (res.code === -1) continue;
      if (res.code === 0 && res.output.includes("contained")) return { usable: true, binary };
      reasons.push(`${binary} cannot make a pid namespace here: ${res.output.slice(0, 200) || `exit ${res.code}`}`);
    }
    return { usable: false, reason: reasons.join("; ") || "bubblewrap (bwrap) is not installed" };
  })();
  return cached;
}

/** The approval prompt's one line on what running outside the sandbox gives the command. */
export function outsideSandboxLine(containment: ContainmentProbe): string {
  return containment.usable
    ? "outside the sandbox: it can read and write your files and use your network, as your user; it runs in its own process space, so it sees no other process and nothing it starts outlives it"
    : `outside the sandbox: it can read and write your files, use your network and see your other processes (their environments too), as your user, and what it starts in the background (setsid, daemons) can outlive the swarm: no process containment here (${containment.reason})`;
}
