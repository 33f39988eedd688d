// A swarm's branches measured against the user's branch, from git alone: "merged" when every commit of the
// branch is reachable from the user's HEAD, "no-commits" when the branch never moved from where it was created
// (an empty branch is not "merged"), "unmerged" otherwise. Where a branch started comes from its reflog's
// creation entry, or else from the swarm's recorded base commit.
import type { BranchState } from "../protocol/swarmHistoryRpc";
import { agentOfBranch, BRANCH_ROOT, integrationBranch } from "./branchNames";
import { gitText, runGit } from "./gitExec";
import { headCommit, isAncestor } from "./repoFacts";

/** Reflog subjects git and Swarmboard write when a branch is created. */
const creationSubject = /^(branch: Created from |swarmboard: start swarm)/;

/** The commit a branch was created at, when its reflog still says so. */
async function creationSha(topLevel: string, branch: string): Promise<string | null> {
  const out = await runGit(topLevel, ["log", "-g", "--format=%H %gs", `refs/heads/${branch}`, "--"], {
    okExitCodes: [128],
  });
  const lines = out.stdout.split("\n").filter((l) => l.trim() !== "");
  const oldest = lines[lines.length - 1];
  if (oldest === undefined) return null;
  const space = oldest.indexOf(" ");
  return creationSubject.test(oldest.slice(space + 1)) ? oldest.slice(0, space) : null;
}

async function countCommits(topLevel: string, range: string): Promise<number> {
  return Number(await gitText(topLevel, ["rev-list", "--count", range]));
}

/** Every branch of `swarmId` (integration first) with its sha: read from the refs, nothing is created. */
export async function swarmBranches(
  topLevel: string,
  swarmId: string,
): Promise<Array<{ branch: string; sha: string }>> {
  const out = await gitText(topLevel, [
    "for-each-ref",
    "--format=%(objectname) %(refname:short)",
    `refs/heads/${BRANCH_ROOT}/${swarmId}/`,
  ]);
  const integration = integrationBranch(swarmId);
  return out
    .split("\n")
    .filter(Boolean)
    .map((line) => ({ sha: line.slice(0, line.indexOf(" ")), branch: line.slice(line.indexOf(" ") + 1) }))
    .sort((a, b) => (a.branch === integration ? -1 : b.branch === integration ? 1 : a.branch.localeCompare(b.branch)));
}

/** The state of each branch of the swarm against the user's HEAD. */
export async function branchStates(topLevel: string, swarmId: string, baseSha?: string): Promise<BranchState[]> {
  const branches = await swarmBranches(topLevel, swarmId);
  if (branches.length === 0) return [];
  const head = await headCommit(topLevel);
  const integrationSha = branches.find((b) => b.branch === integrationBranch(swarmId))?.sha;
  const states: BranchState[] = [];
  for (const { branch, sha } of branches) {
    const start = (await creationSha(topLevel, branch)) ?? baseSha ?? null;
    const moved = start === null ? true : (await countCommits(topLevel, `${start}..${sha}`)) > 0;
    const unmergedCommits = await countCommits(topLevel, `${head}..${sha}`);
    const agent = agentOfBranch(swarmId, branch) ?? null;
    states.push({
      branch,
      agent,
      sha,
      state: !moved ? "no-commits" : unmergedCommits === 0 ? "merged" : "unmerged",
      unmergedCommits,
      inIntegration:
        agent === null || (integrationSha !== undefined && (await isAncestor(topLevel, sha, integrationSha))),
    });
  }
  return states;
}
