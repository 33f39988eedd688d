// Every command dies with the swarm. It runs in its own process group under a small supervisor (bash) that holds
// the read end of a pipe whose only write end is in the worker: when the worker exits for any reason, SIGKILL
// included, the pipe reads EOF and the supervisor kills the whole group. Measured here: with no supervisor all
// processes of a command outlive a SIGKILLed worker; with a parent-death signal (`setpriv --pdeathsig KILL`) only
// the shell dies and its children live on; with this supervisor none survive. Bubblewrap's own
// `--die-with-parent` does the same for the sandbox's pid namespace, and runs under the supervisor too.
import { spawn, type ChildProcess } from "node:child_process";

/**
 * $1.. is the command. The watcher blocks on fd 3 (the pipe); the command gets fd 3 closed so it cannot hold
 * the pipe open. After a normal end the rest of the group is stopped and the command's exit status passed on.
 */
const SUPERVISOR = [
  '"$@" 3<&- &',
  "child=$!",
  "{ read -r _ <&3; kill -KILL 0; } &",
  'wait "$child"',
  "rc=$?",
  // The command returned: what it left running in the background (and the watcher) ends with it. The supervisor
  // ignores the TERM it sends to its own group; processes started before the trap do not.
  "trap '' TERM",
  "kill -TERM 0 2>/dev/null",
  "exit $rc",
].join("\n");

export interface SupervisedProcess {
  readonly child: ChildProcess;
  /** SIGKILL to the command's whole process group (a stop, a timeout); harmless when it is gone. */
  killGroup(): void;
}

export function spawnSupervised(
  file: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env: Record<string, string> },
): SupervisedProcess {
  // detached: a new session and process group, so the group kill reaches grandchildren and nothing else.
  const child = spawn(
    "/bin/bash",
    ["--noprofile", "--norc", "-c", SUPERVISOR, "swarmboard-supervisor", file, ...args],
    {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe", "pipe"],
      detached: true,
    },
  );
  const killGroup = () => {
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  return { child, killGroup };
}
