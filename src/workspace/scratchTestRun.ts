// Runs a swarm's test command once, before the agents start, to find its failing tests (the `test-failures`
// task source). It runs in a throwaway detached worktree of the integration branch, never in the user's
// checkout, under the command policy and only inside the sandbox: a command the policy does not allow
// outright, or a machine without bubblewrap, means no run (and the reason says so), never an unsandboxed one.
// The user's installed dependency folders are linked in and bound read-only (dependencyFolders.ts), so a test
// runner installed as a devDependency runs there as in the user's checkout.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { probeBubblewrap, type BubblewrapProbe } from "./bubblewrap";
import type { CommandPolicy } from "./commandPolicy";
import { runShellCommand } from "./commandRunner";
import { linkDependencyFolders, NO_DEPENDENCY_FOLDERS, type DependencyFolders } from "./dependencyFolders";
import { runGit } from "./gitExec";
import { withLockRetry } from "./gitQueue";
import type { SwarmRepository } from "./swarmRepository";

export type ScratchTestRun =
  | { readonly ran: true; readonly exitCode: number; readonly output: string; readonly truncated: boolean }
  | { readonly ran: false; readonly reason: string };

export interface ScratchTestRunOptions {
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
  /** Override the bubblewrap probe (tests). */
  readonly sandbox?: BubblewrapProbe;
  /** The commit to test (default: the integration branch). */
  readonly ref?: string;
  /** The user's installed dependency folders, shown read-only. */
  readonly dependencies?: DependencyFolders;
}

export async function runTestCommandInScratch(
  repo: SwarmRepository,
  command: string,
  policy: CommandPolicy,
  options: ScratchTestRunOptions = {},
): Promise<ScratchTestRun> {
  const verdict = policy.evaluate(command);
  if (verdict.decision !== "allow") {
    return {
      ran: false,
      reason: `the test command "${command}" is not allowed outright by the command policy (${verdict.reasons.join("; ")}); add it to swarmboard.commandPolicy.allow`,
    };
  }
  const sandbox = options.sandbox ?? (await probeBubblewrap());
  if (!sandbox.usable)
    return {
      ran: false,
      reason: `no sandbox to run the test command in (${sandbox.reason}); install bubblewrap (the Debian/Ubuntu package bubblewrap)`,
    };
  const parent = path.dirname(repo.worktreeRoot);
  await mkdir(parent, { recursive: true });
  const dir = await mkdtemp(path.join(parent, `scratch-${repo.swarm}-`));
  try {
    await repo.queue.run(() =>
      withLockRetry(() =>
        runGit(repo.topLevel, ["worktree", "add", "--detach", dir, options.ref ?? repo.integrationBranch]),
      ),
    );
    const dependencies = options.dependencies ?? NO_DEPENDENCY_FOLDERS;
    const links = await linkDependencyFolders(dir, dependencies);
    const outcome = await runShellCommand({
      command,
      cwd: dir,
      sandbox,
      timeoutMs: options.timeoutMs ?? 300_000,
      maxOutputBytes: options.maxOutputBytes ?? 256_000,
      sandboxOptions: {
        gitDirs: [repo.commonDir],
        userCheckout: repo.topLevel,
        readOnlyBinds: dependencies.sources,
        gitIgnored: links,
      },
    });
    if (outcome.exitCode === null)
      return {
        ran: false,
        reason: outcome.timedOut ? `the test command timed out` : `the test command was killed (${outcome.signal})`,
      };
    return { ran: true, exitCode: outcome.exitCode, output: outcome.output, truncated: outcome.truncated };
  } finally {
    await repo.queue.run(() =>
      withLockRetry(() => runGit(repo.topLevel, ["worktree", "remove", "--force", dir], { okExitCodes: [128] })),
    );
    await rm(dir, { recursive: true, force: true });
  }
}
