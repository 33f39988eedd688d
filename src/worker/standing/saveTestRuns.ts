// Failing tests after a save: a standing swarm whose recipe names a test command runs it on what the person has
// in their checkout right now (saved, uncommitted and untracked files), and its failures come in as test-failure
// triggers. Runs are debounced and coalesced (src/core/coalescingRunner.ts). The checkout is never touched: its
// state is snapshotted as a commit through a private index (uncommittedSnapshot.ts) and the command runs in a
// sandboxed scratch worktree of that commit under the swarm's command policy, as after a polled commit.
import { CoalescingRunner } from "../../core/coalescingRunner";
import { testFailureTriggers } from "../../core/commitTriggers";
import { testsCouldNotRunText, whyTestsCouldNotRun } from "../../core/testsCouldNotRun";
import type { TriggerInput } from "../../protocol/triggers";
import { headCommit } from "../../workspace/repoFacts";
import { runTestCommandInScratch } from "../../workspace/scratchTestRun";
import { swarmIdentity } from "../../workspace/swarmRepository";
import { snapshotUncommitted } from "../../workspace/uncommittedSnapshot";
import type { CheckoutTestGround } from "../swarm/swarmRun";

const snapshotMessage = "Swarmboard: the person's checkout after a save, for a standing swarm's test run";

export class SaveTestRuns {
  private readonly runner: CoalescingRunner | undefined;

  constructor(
    private readonly setup: CheckoutTestGround,
    debounceMs: number,
    private readonly take: (raw: TriggerInput) => Promise<unknown>,
    private readonly note: (text: string) => Promise<void>,
  ) {
    const command = setup.options.recipe.testCommand;
    this.runner =
      command === undefined
        ? undefined
        : new CoalescingRunner(
            debounceMs,
            () => this.run(command),
            (error) => void this.note(`the test run after a save failed: ${error.message}`),
          );
  }

  /** A file was saved: the tests run soon; false when the recipe names no test command. */
  saved(): boolean {
    this.runner?.poke();
    return this.runner !== undefined;
  }

  /** No more runs; waits for the one in progress. */
  close(): Promise<void> {
    return this.runner?.close() ?? Promise.resolve();
  }

  private async run(command: string): Promise<void> {
    const { repo, policy, dependencies } = this.setup;
    const head = await headCommit(repo.topLevel);
    const snap = await snapshotUncommitted(repo.topLevel, head, swarmIdentity, snapshotMessage);
    const ref = snap.commit ?? head;
    const run = await runTestCommandInScratch(repo, command, policy, { ref, dependencies });
    if (!run.ran) {
      await this.note(`the tests were not run after a save: ${run.reason}`);
      return;
    }
    const problem = whyTestsCouldNotRun(run.output, run.exitCode);
    if (problem) {
      await this.note(`after a save, ${testsCouldNotRunText(problem.why, run.output)}`);
      return;
    }
    for (const t of testFailureTriggers(run.output, run.exitCode, ref, Date.now())) await this.take(t);
  }
}
