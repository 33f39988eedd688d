// Runs one shell command for an agent: in its worktree, inside bubblewrap when that is usable (else, approved, in
// its own pid namespace over the host's filesystem where bwrap can make one: processContainment.ts), under a
// supervisor that kills its process group on a timeout, a stop or the worker's death, with output capped, no
// stdin, and an environment built from an allowlist with a private home and tmp made for this run and removed
// after it.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sandboxArgs, sandboxHome, type BubblewrapProbe, type SandboxOptions } from "./bubblewrap";
import { commandEnv } from "./commandEnv";
import { CappedBuffer } from "./outputCap";
import { containmentArgs, probeContainment, type ContainmentProbe } from "./processContainment";
import { SANDBOX_GIT_EXCLUDES } from "./sandboxMounts";
import { sanitizedConfigOverlays, writeSandboxGitConfig } from "./sandboxGitConfig";
import { spawnSupervised } from "./supervisedSpawn";

export interface CommandRun {
  readonly command: string;
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly sandbox: BubblewrapProbe;
  readonly sandboxOptions?: SandboxOptions;
  /** Names passed from the worker's environment besides the allowlist (what the recipe declares). */
  readonly passEnv?: readonly string[];
  readonly signal?: AbortSignal;
  /** Where the sandbox is not usable: the pid namespace the command runs in (default: probed; tests override). */
  readonly containment?: ContainmentProbe;
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

interface Launch {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
}

/** The program, arguments and environment for one run; `scratch` is this run's private folder on the host. */
async function prepareLaunch(run: CommandRun, scratch: string): Promise<Launch> {
  const shell = ["/bin/bash", "--noprofile", "--norc", "-c", run.command];
  if (!run.sandbox.usable) {
    const home = path.join(scratch, "home");
    const tmp = path.join(scratch, "tmp");
    await Promise.all([mkdir(home), mkdir(tmp)]);
    const env = commandEnv(process.env, { home, tmp, pass: run.passEnv });
    const contain = run.containment ?? (await probeContainment());
    if (!contain.usable) return { file: shell[0], args: shell.slice(1), env };
    return { file: contain.binary, args: [...containmentArgs(run.cwd), "--", ...shell], env };
  }
  const options = run.sandboxOptions ?? {};
  const emptyDir = path.join(scratch, "empty");
  await mkdir(emptyDir);
  const gitDir = options.gitDirs?.[0];
  const ignored = options.gitIgnored ?? [];
  const gitExcludes = ignored.length > 0 ? path.join(scratch, "git-excludes") : undefined;
  if (gitExcludes) await writeFile(gitExcludes, ignored.map((n) => `/${n}\n`).join(""));
  const gitConfig = gitDir
    ? await writeSandboxGitConfig(gitDir, path.join(scratch, "gitconfig"), gitExcludes && SANDBOX_GIT_EXCLUDES)
    : undefined;
  const overlays = await Promise.all(
    (options.gitDirs ?? []).map((dir, i) => sanitizedConfigOverlays(dir, path.join(scratch, `gitconfigs-${i}`))),
  );
  const args = sandboxArgs(run.cwd, {
    ...options,
    emptyDir,
    gitConfigOverlays: overlays.flat(),
    ...(gitConfig ? { gitConfig } : {}),
    ...(gitExcludes ? { gitExcludes } : {}),
  });
  const env = commandEnv(process.env, { home: sandboxHome(options), tmp: "/tmp", pass: run.passEnv });
  return { file: run.sandbox.binary, args: [...args, "--", ...shell], env };
}

export async function runShellCommand(run: CommandRun): Promise<CommandOutcome> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), "swarmboard-cmd-"));
  try {
    return await runPrepared(run, await prepareLaunch(run, scratch));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function runPrepared(run: CommandRun, launch: Launch): Promise<CommandOutcome> {
  const sandboxed = run.sandbox.usable;
  return new Promise((resolve, reject) => {
    const { child, killGroup } = spawnSupervised(launch.file, launch.args, { cwd: run.cwd, env: launch.env });
    const out = new CappedBuffer(run.maxOutputBytes);
    child.stdout?.on("data", (c: Buffer) => out.push(c));
    child.stderr?.on("data", (c: Buffer) => out.push(c));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, run.timeoutMs);
    run.signal?.addEventListener("abort", killGroup);
    if (run.signal?.aborted) killGroup();
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
