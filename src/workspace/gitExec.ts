// Every git command Swarmboard runs goes through `runGit`: simple-git with hooks switched off, automatic gc
// and fsmonitor off, signing off, optional locks off (so reading the user's repository never rewrites its
// index), and a clean git environment (a worker started from inside a git hook would otherwise inherit
// GIT_DIR/GIT_INDEX_FILE and act on the wrong repository). Nothing here ever writes git config: settings are
// passed as `-c` for one command only (a sparse worktree's settings too).
import { simpleGit, type SimpleGitOptions } from "simple-git";
import { isSparseWorktree, SPARSE_CONFIG } from "./sparseMarker";

/** Config passed with `-c` to every command: no hooks, no background work, no programs run from config. */
const SAFE_CONFIG = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "gc.auto=0",
  "maintenance.auto=false",
  "commit.gpgSign=false",
  "tag.gpgSign=false",
  "merge.conflictStyle=merge",
  "advice.detachedHead=false",
];

/**
 * Environment variables that would redirect git to another repository, index or config, or make it run a
 * program (editor, pager, ssh, askpass, external diff). Git never needs them here, and simple-git refuses
 * to run with most of them set, so they are dropped.
 */
const GIT_UNWANTED_ENV =
  /^(GIT_(DIR|WORK_TREE|INDEX_FILE|COMMON_DIR|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|NAMESPACE|CEILING_DIRECTORIES|CONFIG.*|PREFIX|EXEC_PATH|EDITOR|SEQUENCE_EDITOR|PAGER|ASKPASS|SSH|SSH_COMMAND|PROXY_COMMAND|EXTERNAL_DIFF|TEMPLATE_DIR)|EDITOR|VISUAL|PAGER|PREFIX|SSH_ASKPASS)$/i;

/**
 * Kept although they match the pattern above: they only choose which of the person's own config files git reads
 * (where ~/.gitconfig and /etc/gitconfig would be), never add settings of their own. A person who keeps their
 * config elsewhere gets their own identity, and the tests isolate git from the machine's config with them.
 */
const GIT_CONFIG_FILE_ENV = new Set(["GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM"]);

export interface GitIdentity {
  readonly name: string;
  readonly email: string;
}

export interface GitRunOptions {
  /** Extra environment (e.g. GIT_INDEX_FILE for a private index). */
  readonly env?: Readonly<Record<string, string>>;
  /** Author and committer for commands that create commits. */
  readonly identity?: GitIdentity;
  /** Exit codes that are answers, not failures (e.g. 1 for `merge-base --is-ancestor`). */
  readonly okExitCodes?: readonly number[];
  readonly signal?: AbortSignal;
}

export interface GitOutput {
  readonly stdout: string;
  readonly exitCode: number;
}

/** A git command that failed: its arguments, exit code and output, for the message and for retry decisions. */
export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number,
    readonly output: string,
  ) {
    super(`git ${args.join(" ")} failed (exit ${exitCode}): ${output.trim().slice(0, 2000)}`);
    this.name = "GitCommandError";
  }

  /** True when another git process held a lock file (`index.lock`, `config.lock`, a ref lock): worth retrying. */
  get isLockBusy(): boolean {
    return /Unable to create '[^']*\.lock': File exists|could not lock config file .*File exists|Another git process seems to be running/i.test(
      this.output,
    );
  }
}

function cleanEnv(extra: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && (GIT_CONFIG_FILE_ENV.has(k.toUpperCase()) || !GIT_UNWANTED_ENV.test(k))) env[k] = v;
  }
  // C locale keeps messages stable for the lock detection above; optional locks off keeps reads read-only.
  Object.assign(env, { LC_ALL: "C", LANGUAGE: "C", GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0" });
  return { ...env, ...(extra ?? {}) };
}

/** Runs one git command in `cwd`. Non-zero exits throw GitCommandError unless listed in okExitCodes. */
export async function runGit(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<GitOutput> {
  const config = [...SAFE_CONFIG];
  // A sparse agent worktree (sparseCheckout.ts) keeps its cone through merges and checkouts: see sparseMarker.ts.
  if (isSparseWorktree(cwd)) config.push(...SPARSE_CONFIG);
  if (options.identity) {
    config.push(`user.name=${options.identity.name}`, `user.email=${options.identity.email}`);
  }
  let exitCode = 0;
  let failureOutput = "";
  const gitOptions: Partial<SimpleGitOptions> = {
    baseDir: cwd,
    config,
    maxConcurrentProcesses: 1,
    trimmed: false,
    // We set core.hooksPath and core.fsmonitor only to turn them off; simple-git guards every value of them. Config
    // paths: cleanEnv passes only the config-file choices above (simple-git would refuse GIT_CONFIG_GLOBAL itself).
    unsafe: { allowUnsafeHooksPath: true, allowUnsafeFsMonitor: true, allowUnsafeConfigPaths: true },
    // Exit codes are judged below, after simple-git returns: its own handler turns any exit with stderr into a
    // plain GitError (which would hide lock errors from the retry), so a process that ran is never an error here.
    errors(error, result) {
      exitCode = result.exitCode;
      if (result.exitCode > 0) {
        failureOutput = Buffer.concat([...result.stdOut, ...result.stdErr]).toString("utf8");
        return undefined;
      }
      return error;
    },
  };
  if (options.signal) gitOptions.abort = options.signal;
  const git = simpleGit(gitOptions).env(cleanEnv(options.env));
  const stdout = await git.raw([...args]);
  if (exitCode !== 0 && !options.okExitCodes?.includes(exitCode))
    throw new GitCommandError(args, exitCode, failureOutput);
  return { stdout, exitCode };
}

/** The trimmed stdout of a command that must succeed. */
export async function gitText(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<string> {
  return (await runGit(cwd, args, options)).stdout.trim();
}
