// Judges one eval run: the integration branch is checked out into a throwaway worktree, the hidden acceptance
// tests (which no agent saw) are copied in, and their command runs there inside the sandbox, like every command
// the swarm runs; solved means it exits 0. No sandbox means no verdict (and the note says why), never an
// unsandboxed run of what the agents wrote. The repository's installed dependency folders (a task's node_modules)
// are linked in and shown read-only, as in the agents' worktrees and the merge verifier's runs: a hidden test of a
// project that needs them runs as the agents' tests did.
import { cp, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { testsCouldNotRunText, whyTestsCouldNotRun } from "../../core/testsCouldNotRun";
import { probeBubblewrap, type BubblewrapProbe } from "../../workspace/bubblewrap";
import { runShellCommand } from "../../workspace/commandRunner";
import { detectDependencyFolders, linkDependencyFolders } from "../../workspace/dependencyFolders";
import { runGit } from "../../workspace/gitExec";
import { locateRepo } from "../../workspace/repoFacts";

export interface JudgeRequest {
  /** The run's own repository (a copy of the task; never the user's checkout). */
  readonly repoPath: string;
  /** What to judge: the swarm's integration branch. */
  readonly ref: string;
  readonly hiddenDir: string;
  /** The hidden tests' folder name in the judged checkout (the same as in the task, so relative requires hold). */
  readonly hiddenName: string;
  readonly command: string;
  /** Where the judged checkout is made (removed after). */
  readonly scratchParent: string;
  readonly timeoutMs: number;
  /** Override the bubblewrap probe (tests). */
  readonly sandbox?: BubblewrapProbe;
}

export interface Verdict {
  readonly solved: boolean;
  /** Why it is not solved: the hidden tests' first failure lines, or why they could not run. */
  readonly note?: string;
}

/** The first lines of the test output that say what failed (node --test's `not ok` and the error under it). */
export function failureLines(output: string, most = 3): string {
  const lines = output.split("\n").map((l) => l.trim());
  const failed = lines.filter((l) => /^not ok\b|Error|expected|actual/i.test(l)).slice(0, most);
  return (failed.length > 0 ? failed : lines.filter((l) => l !== "").slice(-most)).join(" | ").slice(0, 300);
}

export async function judgeIntegration(request: JudgeRequest): Promise<Verdict> {
  const sandbox = request.sandbox ?? (await probeBubblewrap());
  if (!sandbox.usable)
    return { solved: false, note: `not judged: no sandbox to run the hidden tests in (${sandbox.reason})` };
  const dir = await mkdtemp(path.join(request.scratchParent, "judge-"));
  try {
    try {
      await runGit(request.repoPath, ["worktree", "add", "--detach", dir, request.ref]);
    } catch (error) {
      return {
        solved: false,
        note: `not judged: ${request.ref} could not be checked out (${(error as Error).message})`,
      };
    }
    await cp(request.hiddenDir, path.join(dir, request.hiddenName), { recursive: true, force: true });
    const { topLevel, commonDir } = await locateRepo(request.repoPath);
    const dependencies = await detectDependencyFolders(topLevel, commonDir);
    const links = await linkDependencyFolders(dir, dependencies);
    const outcome = await runShellCommand({
      command: request.command,
      cwd: dir,
      sandbox,
      timeoutMs: request.timeoutMs,
      maxOutputBytes: 64_000,
      sandboxOptions: { readOnlyBinds: dependencies.sources, gitIgnored: links },
    });
    if (outcome.exitCode === null)
      return {
        solved: false,
        note: outcome.timedOut ? "the hidden tests timed out" : `the hidden tests were killed (${outcome.signal})`,
      };
    // Paths in the checkout read as the task's own (the throwaway folder's name says nothing).
    const output = outcome.output.replaceAll(`${dir}/`, "");
    // A run that could not run (exit 127, no runner, no test reported) is no verdict, never solved.
    const problem = whyTestsCouldNotRun(output, outcome.exitCode);
    if (problem) return { solved: false, note: `not judged: the hidden ${testsCouldNotRunText(problem.why, output)}` };
    if (outcome.exitCode === 0) return { solved: true };
    return { solved: false, note: `hidden tests failed (exit ${outcome.exitCode}): ${failureLines(output)}` };
  } finally {
    await runGit(request.repoPath, ["worktree", "remove", "--force", dir], { okExitCodes: [0, 128] });
    await rm(dir, { recursive: true, force: true });
  }
}
