// Runs one shell command for an agent: in its worktree, inside bubblewrap when that is usable, with a timeout
// that kills the whole process group, output capped, no stdin, and an environment without secrets.
import { spawn } from "node:child_process";
import { CappedBuffer } from "./outputCap";
import { sandboxArgs, type BubblewrapProbe, type SandboxOptions } from "./bubblewrap";

/** Names that look like credentials, and variables that make a shell or the loader run extra code. */
const SECRET_ENV = /TOKEN|KEY|SECRET|PASSWORD|PASSWD|CREDENTIAL|COOKIE|_AUTH|SESSION/i;
const CODE_ENV =
  /^(BASH_ENV|ENV|BASH_FUNC_.*|LD_PRELOAD|LD_AUDIT|NODE_OPTIONS|PROMPT_COMMAND|GIT_(DIR|WORK_TREE|INDEX_FILE|COMMON_DIR|CONFIG.*|EXEC_PATH|SSH.*|ASKPASS)|SSH_AUTH_SOCK|SSH_AGENT_PID)$/;

/** The environment a command sees: the worker's, without secrets, with git hooks switched off. */
export function commandEnv(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v !== undefined && !SECRET_ENV.test(k) && !CODE_ENV.test(k)) env[k] = v;
  }
  // Git run by the command (git log, git diff) gets hooks off and never takes optional locks.
  Object.assign(env, {
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: "core.hooksPath",
    GIT_CONFIG_VALUE_0: "/dev/null",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_TERMINAL_PROMPT: "0",
  });
  return env;
}

export interface CommandRun {
  readonly command: string;
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly sandbox: BubblewrapProbe;
  readonly sandboxOptions?: SandboxOptions;
  readonly signal?: AbortSignal;
}

export interface CommandOutcome {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly sandboxed: boolean;
  /** stdout and stderr interleaved as they came. */
  readonly output: string;
  readonly truncated: boolean;
}

export function runShellCommand(run: CommandRun): Promise<CommandOutcome> {
  const shell = ["/bin/bash", "--noprofile", "--norc", "-c", run.command];
  const sandboxed = run.sandbox.usable;
  const [file, args] = run.sandbox.usable
    ? [run.sandbox.binary, [...sandboxArgs(run.cwd, run.sandboxOptions), "--", ...shell]]
    : [shell[0], shell.slice(1)];
  return new Promise((resolve, reject) => {
    // detached: its own process group, so a timeout kills grandchildren too.
    const child = spawn(file, args, {
      cwd: run.cwd,
      env: commandEnv(),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const out = new CappedBuffer(run.maxOutputBytes);
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => out.push(c));
    let timedOut = false;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, run.timeoutMs);
    run.signal?.addEventListener("abort", killGroup);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      run.signal?.removeEventListener("abort", killGroup);
      resolve({ exitCode: code, signal, timedOut, sandboxed, output: out.toString(), truncated: out.truncated });
    });
  });
}
