// Failing tests after a save: a standing swarm whose recipe names a test command runs it on what the person has
// in their checkout right now (saved but not committed), and its failures come in as test-failure triggers. Saves
// come in bursts (save all, format on save), so a run starts `debounceMs` after the last one; a save during a run
// asks for one more run after it. The checkout is never touched: its state is snapshotted as a commit through a
// private index (uncommittedSnapshot.ts) and the command runs in a scratch worktree of that commit, under the
// swarm's command policy, as after a polled commit.
import { testFailureTriggers } from "../core/commitTriggers";
import type { TriggerInput } from "../protocol/triggers";
import { headCommit } from "../workspace/repoFacts";
import { runTestCommandInScratch } from "../workspace/scratchTestRun";
import { swarmIdentity } from "../workspace/swarmRepository";
import { snapshotUncommitted } from "../workspace/uncommittedSnapshot";
import type { SwarmSetup } from "./swarmSetup";

const snapshotMessage = "Swarmboard: the person's checkout after a save, for a standing swarm's test run";

export class SaveTestRuns {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(
    private readonly setup: SwarmSetup,
    private readonly debounceMs: number,
    private readonly take: (raw: TriggerInput) => Promise<unknown>,
    private readonly note: (text: string) => Promise<void>,
  ) {}

  /** The recipe's test command, or undefined: then a save starts nothing. */
  get command(): string | undefined {
    return this.setup.options.recipe.testCommand;
  }

  /** A file was saved; false when there is no test command to run. */
  saved(): boolean {
    if (this.command === undefined || this.closed) return false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.start(), this.debounceMs);
    this.timer.unref();
    return true;
  }

  /** Stops scheduling; waits for a run in progress. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private start(): void {
    if (this.closed) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    this.running = this.run()
      .catch((error: unknown) => this.note(`the test run after a save failed: ${(error as Error).message}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.start();
        }
      });
  }

  private async run(): Promise<void> {
    const { repo, policy, dependencies } = this.setup;
    const head = await headCommit(repo.topLevel);
    const snap = await snapshotUncommitted(repo.topLevel, head, swarmIdentity, snapshotMessage);
    const ref = snap.commit ?? head;
    const run = await runTestCommandInScratch(repo, this.command!, policy, { ref, dependencies });
    if (!run.ran) {
      await this.note(`the tests were not run after a save: ${run.reason}`);
      return;
    }
    for (const t of testFailureTriggers(run.output, run.exitCode, ref, Date.now())) await this.take(t);
  }
}
