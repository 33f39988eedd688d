// Verify before merge: the recipe's test command runs on the agent's tree (the integration branch already
// merged in), sandboxed and under the swarm's command policy, and is compared with a run on the integration
// branch itself; the merge is published only if no test that passed there fails now.
// The integration branch's run is kept per commit: after a verified merge the agent's run is the new branch's
// (the same tree), so the only extra runs are the first one and those after a branch moved some other way.
import { compareTestReports, readTestReport, type TestReport } from "../core/testReport";
import { testsCouldNotRunText, whyTestsCouldNotRun } from "../core/testsCouldNotRun";
import type { MergeVerification } from "../protocol/tools";
import { probeBubblewrap, type BubblewrapProbe, type SandboxOptions } from "./bubblewrap";
import type { CommandPolicy } from "./commandPolicy";
import { runShellCommand } from "./commandRunner";
import { NO_DEPENDENCY_FOLDERS, type DependencyFolders } from "./dependencyFolders";
import { refSha } from "./repoFacts";
import { runTestCommandInScratch, type ScratchTestRun } from "./scratchTestRun";
import type { SwarmRepository } from "./swarmRepository";

export interface MergeVerifierOptions {
  readonly testCommand: string;
  readonly policy: CommandPolicy;
  readonly dependencies?: DependencyFolders;
  /** Longest a test run may take (default 5 minutes; the error says how to change it). */
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
  /** The recipe's `verify: "off"`: a merge whose tests could not run is published marked unverified, not refused. */
  readonly publishUnverified?: boolean;
  /** Override the bubblewrap probe (tests). */
  readonly sandbox?: BubblewrapProbe;
}

/** A run of the test command that could not happen, with why. */
type Unverified = { readonly ran: false; readonly reason: string };
/** A run that happened but is no verdict (exit 127, no runner, no test reported): never a pass. */
type CouldNotRun = { readonly couldNotRun: string };

/** The report of a run, or why it is none. */
function judged(output: string, exitCode: number): TestReport | CouldNotRun {
  const report = readTestReport(output, exitCode);
  const problem = whyTestsCouldNotRun(output, exitCode, report);
  return problem ? { couldNotRun: testsCouldNotRunText(problem.why, output) } : report;
}

/** What is known of a baseline that could not run: nothing passed there, so every failure now counts. */
const UNKNOWN_BASELINE: TestReport = { exitCode: 0, passed: [], failed: [] };

export class MergeVerifier {
  private readonly baselines = new Map<string, Promise<TestReport | Unverified | CouldNotRun>>();

  constructor(
    private readonly repo: SwarmRepository,
    readonly options: MergeVerifierOptions,
  ) {}

  get dependencies(): DependencyFolders {
    return this.options.dependencies ?? NO_DEPENDENCY_FOLDERS;
  }

  /** The test command run on the integration branch (at start: the test-failures source reads it too). */
  async runOnIntegration(): Promise<ScratchTestRun> {
    const sha = await refSha(this.repo.topLevel, `refs/heads/${this.repo.integrationBranch}`);
    if (sha === null) return { ran: false, reason: `the integration branch ${this.repo.integrationBranch} is missing` };
    const run = this.scratchRun(sha);
    this.baselines.set(
      sha,
      run.then((r) => (r.ran ? judged(r.output, r.exitCode) : r)),
    );
    return run;
  }

  private scratchRun(sha: string): Promise<ScratchTestRun> {
    const { testCommand, policy, timeoutMs, maxOutputBytes, sandbox } = this.options;
    return runTestCommandInScratch(this.repo, testCommand, policy, {
      ref: sha,
      dependencies: this.dependencies,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(maxOutputBytes !== undefined ? { maxOutputBytes } : {}),
      ...(sandbox ? { sandbox } : {}),
    });
  }

  private baseline(sha: string): Promise<TestReport | Unverified | CouldNotRun> {
    let found = this.baselines.get(sha);
    if (found === undefined) {
      found = this.scratchRun(sha).then((r) => (r.ran ? judged(r.output, r.exitCode) : r));
      this.baselines.set(sha, found);
    }
    return found;
  }

  /**
   * Runs the tests in the agent's worktree (at `head`, which holds `integrationSha` merged in) and judges them;
   * `wholeTree`: in a scratch checkout of `head` instead (a sparse worktree: the merge needs a clean worktree, so
   * `head` holds all of the agent's work, and the tests see every file of the commit that would be published).
   */
  async verify(
    worktree: string,
    head: string,
    integrationSha: string,
    sandboxOptions: SandboxOptions,
    how: { wholeTree: boolean } = { wholeTree: false },
  ): Promise<MergeVerification> {
    const command = this.options.testCommand;
    const unverified = (note: string): MergeVerification => ({
      status: "unverified",
      command,
      passed: 0,
      failed: 0,
      broken: [],
      stillFailing: [],
      note: `unverified: ${note}`,
    });
    const before = await this.baseline(integrationSha);
    if ("ran" in before) return unverified(`the tests could not run on the integration branch: ${before.reason}`);
    const after = how.wholeTree ? await this.baseline(head) : await this.runInWorktree(worktree, sandboxOptions);
    if ("ran" in after) return unverified(`the tests could not run in your worktree: ${after.reason}`);
    // The agent's tree becomes the integration branch if the merge is published: its run is that branch's.
    this.baselines.set(head, Promise.resolve(after));
    if ("couldNotRun" in after)
      return {
        status: "could-not-run",
        command,
        passed: 0,
        failed: 0,
        broken: [],
        stillFailing: [],
        note: `"${command}" on your tree: ${after.couldNotRun}`,
      };
    const cmp = compareTestReports("couldNotRun" in before ? UNKNOWN_BASELINE : before, after);
    const counts = `${after.passed.length} passed, ${after.failed.length} failed`;
    const status = cmp.broken.length > 0 ? "broke-tests" : "passed";
    const note =
      status === "passed"
        ? `"${command}": ${counts}; no test that passed on the integration branch fails` +
          (cmp.stillFailing.length > 0 ? ` (${cmp.stillFailing.length} failed there too)` : "") +
          (cmp.fixed.length > 0 ? `; fixed: ${cmp.fixed.slice(0, 10).join("; ")}` : "")
        : `"${command}": ${counts}; these passed on the integration branch and fail now: ${cmp.broken.slice(0, 10).join("; ")}`;
    return {
      status,
      command,
      passed: after.passed.length,
      failed: after.failed.length,
      broken: [...cmp.broken],
      stillFailing: [...cmp.stillFailing],
      note,
    };
  }

  private async runInWorktree(
    worktree: string,
    sandboxOptions: SandboxOptions,
  ): Promise<TestReport | Unverified | CouldNotRun> {
    const { testCommand, policy } = this.options;
    const verdict = policy.evaluate(testCommand, { cwd: worktree });
    if (verdict.decision !== "allow")
      return {
        ran: false,
        reason: `"${testCommand}" is not allowed outright by the command policy (${verdict.reasons.join("; ")}); add it to swarmboard.commandPolicy.allow`,
      };
    const sandbox = this.options.sandbox ?? (await probeBubblewrap());
    if (!sandbox.usable) return { ran: false, reason: `no sandbox (${sandbox.reason}); install bubblewrap` };
    const timeoutMs = this.options.timeoutMs ?? 300_000;
    const outcome = await runShellCommand({
      command: testCommand,
      cwd: worktree,
      sandbox,
      timeoutMs,
      maxOutputBytes: this.options.maxOutputBytes ?? 256_000,
      sandboxOptions,
    });
    if (outcome.exitCode === null)
      return {
        ran: false,
        reason: outcome.timedOut
          ? `"${testCommand}" ran past ${timeoutMs} ms and was stopped; make the tests faster or the recipe's wall clock longer`
          : `"${testCommand}" was killed (${outcome.signal})`,
      };
    return judged(outcome.output, outcome.exitCode);
  }
}
