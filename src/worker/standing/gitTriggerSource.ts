// The headless trigger sources of a standing swarm: the person's branch polled with git. Each new commit gives
// the TODO/FIXME comments it added, the files it touched, and (when the recipe names a test command) the failures
// of that command run at the commit in a scratch worktree under the swarm's command policy.
import { gitText } from "../../workspace/gitExec";
import { runTestCommandInScratch } from "../../workspace/scratchTestRun";
import { testFailureTriggers, todoTriggersFromDiff, touchedFileTriggers } from "../../core/commitTriggers";
import { testsCouldNotRunText, whyTestsCouldNotRun } from "../../core/testsCouldNotRun";
import type { TriggerInput } from "../../protocol/triggers";
import type { CheckoutTestGround } from "../swarm/swarmRun";

/** Starts polling; returns the stop. A poll is skipped while the previous one still runs. */
export function pollUserBranch(
  setup: CheckoutTestGround,
  everyMs: number,
  take: (raw: TriggerInput) => Promise<unknown>,
  note: (text: string) => Promise<void>,
): () => void {
  const root = setup.repo.topLevel;
  let last: string | undefined;
  let busy = false;
  const poll = async () => {
    if (busy) return;
    busy = true;
    try {
      const head = await gitText(root, ["rev-parse", "HEAD"]);
      if (last !== undefined && head !== last) await takeCommits(setup, last, head, take, note);
      last = head;
    } catch (error) {
      await note(`polling the person's branch failed: ${(error as Error).message}`);
    } finally {
      busy = false;
    }
  };
  void poll();
  const timer = setInterval(() => void poll(), everyMs);
  return () => clearInterval(timer);
}

async function takeCommits(
  setup: CheckoutTestGround,
  from: string,
  to: string,
  take: (raw: TriggerInput) => Promise<unknown>,
  note: (text: string) => Promise<void>,
): Promise<void> {
  const root = setup.repo.topLevel;
  const commits = (await gitText(root, ["rev-list", "--reverse", `${from}..${to}`])).split("\n").filter(Boolean);
  for (const commit of commits) {
    const time = Date.now();
    const subject = await gitText(root, ["log", "-1", "--format=%s", commit]);
    const diff = await gitText(root, ["diff", "--unified=0", `${commit}^`, commit]);
    const files = (await gitText(root, ["diff", "--name-only", `${commit}^`, commit])).split("\n").filter(Boolean);
    for (const t of [...todoTriggersFromDiff(diff, commit, time), ...touchedFileTriggers(files, commit, subject, time)])
      await take(t);
  }
  const command = setup.options.recipe.testCommand;
  if (command === undefined) return;
  const run = await runTestCommandInScratch(setup.repo, command, setup.policy, {
    ref: to,
    dependencies: setup.dependencies,
  });
  if (!run.ran) return;
  const problem = whyTestsCouldNotRun(run.output, run.exitCode);
  if (problem) await note(`at ${to.slice(0, 10)}, ${testsCouldNotRunText(problem.why, run.output)}`);
  else for (const t of testFailureTriggers(run.output, run.exitCode, to, Date.now())) await take(t);
}
