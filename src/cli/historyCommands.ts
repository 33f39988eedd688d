// `swarmboard list` and `swarmboard clean-up`: the repository's swarms from the same registry VS Code reads.
// A clean-up never removes silently: without --confirm it prints what would go (and what is unmerged or holds
// uncommitted changes) with a code; only that code, while the plan is unchanged, removes it.
import { createHash } from "node:crypto";
import type { CleanUpPlan, PastSwarm } from "../protocol/swarmHistoryRpc";
import { cleanUp, listSwarms } from "../worker/historyService";
import type { CleanUpOptions, ListOptions } from "./args";
import { checkWorkspace, InputError } from "./inputChecks";

function branchSummary(swarm: PastSwarm): string {
  if (swarm.branches.length === 0) return swarm.cleanedUpAt !== undefined ? "cleaned up" : "no branches";
  const count = (state: string) => swarm.branches.filter((b) => b.state === state).length;
  return `${swarm.branches.length} branches: ${count("unmerged")} unmerged, ${count("merged")} merged, ${count("no-commits")} without commits`;
}

function swarmLines(swarm: PastSwarm): string[] {
  return [
    `${swarm.swarmId}  ${swarm.outcome}  ${new Date(swarm.createdAt).toISOString()}  ${swarm.recipe}  ${swarm.findings} findings`,
    `    goal:      ${swarm.goal.length > 100 ? `${swarm.goal.slice(0, 100)}...` : swarm.goal}`,
    `    outcome:   ${swarm.reason}`,
    `    branches:  ${branchSummary(swarm)}`,
    `    state dir: ${swarm.stateDir}${swarm.stateDirExists ? "" : " (gone)"}`,
  ];
}

export async function listCommand(opts: ListOptions, cwd: string): Promise<number> {
  const workspace = await checkWorkspace(opts.workspace ?? cwd);
  const { swarms, problems } = await listSwarms(workspace);
  for (const p of problems) process.stderr.write(`warning: ${p}\n`);
  if (swarms.length === 0) process.stdout.write(`No swarms are recorded for ${workspace}.\n`);
  for (const swarm of swarms) process.stdout.write(swarmLines(swarm).join("\n") + "\n");
  return 0;
}

/** A short code for what a clean-up would lose: it changes when the plan does. */
export function confirmationCode(plan: CleanUpPlan): string {
  const what = JSON.stringify([plan.swarmId, [...plan.unmerged].sort(), [...plan.uncommitted].sort()]);
  return createHash("sha256").update(what).digest("hex").slice(0, 8);
}

function planLines(plan: CleanUpPlan): string[] {
  return [
    ...plan.branches.map(
      (b) =>
        `  branch   ${b.branch}: ${b.state === "unmerged" ? `UNMERGED (${b.unmergedCommits} commits not in your branch)` : b.state}`,
    ),
    ...plan.worktrees.map((w) => `  worktree ${w.path}${w.uncommitted ? ": UNCOMMITTED CHANGES" : ""}`),
  ];
}

export async function cleanUpCommand(opts: CleanUpOptions, cwd: string): Promise<number> {
  const workspace = await checkWorkspace(opts.workspace ?? cwd);
  const dry = await cleanUp(workspace, opts.swarmId, undefined).catch((error: Error) => {
    throw new InputError(error.message);
  });
  const code = confirmationCode(dry.plan);
  if (opts.confirm === undefined) {
    const lost = dry.plan.unmerged.length + dry.plan.uncommitted.length;
    process.stdout.write(
      [
        `Clean-up of swarm ${opts.swarmId} would remove:`,
        ...planLines(dry.plan),
        lost > 0
          ? `${lost} of these hold work your branch does not have; it would be lost.`
          : "Nothing unmerged: every commit is in your branch.",
        `Your checkout is not touched. To remove all this, run: swarmboard clean-up ${opts.swarmId} --confirm ${code}`,
      ].join("\n") + "\n",
    );
    return 0;
  }
  if (opts.confirm !== code)
    throw new InputError(
      `The code ${opts.confirm} does not match what swarm ${opts.swarmId} holds now (it changed, or the code is ` +
        `from another swarm); nothing was removed. Run \`swarmboard clean-up ${opts.swarmId}\` again to see it.`,
    );
  const done = await cleanUp(workspace, opts.swarmId, {
    unmerged: dry.plan.unmerged,
    uncommitted: dry.plan.uncommitted,
  });
  process.stdout.write(
    `Removed ${done.removed?.branches.length ?? 0} branches and ${done.removed?.worktrees.length ?? 0} worktrees of swarm ${opts.swarmId}.\n`,
  );
  return 0;
}
