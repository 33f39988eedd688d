// The user's review of a swarm: its branches with diff stats and merged-ness, a branch's diff against its base,
// and a merge into the user's current branch that refuses, before touching anything, when the user's
// uncommitted changes touch the same files, the merge would conflict (checked with `git merge-tree`) or git has no
// identity to record the person's merge with.
import type { BranchDiff, BranchReview, MergeIntoCurrentResult } from "../protocol/userReview";
import { automationFilesIn } from "./automationPaths";
import { agentOfBranch } from "./branchNames";
import { gitText, runGit } from "./gitExec";
import { withLockRetry } from "./gitQueue";
import { changedPaths, currentBranch, headCommit, isAncestor, isMerging, refSha } from "./repoFacts";
import type { SwarmRepository } from "./swarmRepository";
import { capText } from "./outputCap";
import { missingUserIdentity } from "./userIdentity";

function baseOf(repo: SwarmRepository, branch: string): string {
  return agentOfBranch(repo.swarm, branch) === null ? "HEAD" : repo.integrationBranch;
}

async function diffStat(dir: string, range: string): Promise<{ files: number; insertions: number; deletions: number }> {
  const out = await gitText(dir, ["diff", "--no-ext-diff", "--no-textconv", "--numstat", "-z", range]);
  let files = 0,
    insertions = 0,
    deletions = 0;
  for (const rec of out.split("\0")) {
    const m = /^(\d+|-)\t(\d+|-)\t/.exec(rec);
    if (!m) continue;
    files++;
    insertions += m[1] === "-" ? 0 : Number(m[1]);
    deletions += m[2] === "-" ? 0 : Number(m[2]);
  }
  return { files, insertions, deletions };
}

export async function listSwarmBranches(repo: SwarmRepository): Promise<BranchReview[]> {
  const reviews: BranchReview[] = [];
  for (const branch of await repo.branches()) {
    const sha = await refSha(repo.topLevel, `refs/heads/${branch}`);
    if (!sha) continue;
    const base = baseOf(repo, branch);
    const baseSha = await refSha(repo.topLevel, base);
    if (!baseSha) continue;
    const counts = await gitText(repo.topLevel, ["rev-list", "--left-right", "--count", `${baseSha}...${sha}`]);
    const [behind, ahead] = counts.split(/\s+/).map(Number);
    const stat = await diffStat(repo.topLevel, `${baseSha}...${sha}`);
    const merged = await isAncestor(repo.topLevel, sha, baseSha);
    const changed = await gitText(repo.topLevel, [
      "diff",
      "--no-ext-diff",
      "--no-renames",
      "--name-only",
      "-z",
      `${baseSha}...${sha}`,
    ]);
    const touchesAutomation = automationFilesIn(changed.split("\0").filter(Boolean));
    reviews.push({
      branch,
      agent: agentOfBranch(repo.swarm, branch) ?? null,
      sha,
      base,
      ahead,
      behind,
      ...stat,
      merged,
      touchesAutomation,
    });
  }
  return reviews;
}

/** The diff of a swarm branch against its merge base with its base (what merging it would bring). */
export async function diffSwarmBranch(repo: SwarmRepository, branch: string, maxChars = 200_000): Promise<BranchDiff> {
  if (agentOfBranch(repo.swarm, branch) === undefined)
    throw new Error(`${branch} is not a branch of swarm ${repo.swarm}.`);
  const base = baseOf(repo, branch);
  const out = await gitText(repo.topLevel, [
    "diff",
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    `${base}...refs/heads/${branch}`,
  ]);
  const capped = capText(out, maxChars);
  return { diff: capped.text, truncated: capped.truncated, base };
}

/** Merges a swarm branch into the user's current branch, only when that cannot disturb their uncommitted work. */
export async function mergeIntoCurrent(repo: SwarmRepository, branch: string): Promise<MergeIntoCurrentResult> {
  if (agentOfBranch(repo.swarm, branch) === undefined)
    throw new Error(`${branch} is not a branch of swarm ${repo.swarm}.`);
  return repo.queue.run(async () => {
    const dir = repo.topLevel;
    const head = await headCommit(dir);
    const sha = await refSha(dir, `refs/heads/${branch}`);
    if (!sha) return { status: "refused", files: [], message: `${branch} does not exist (discarded?).` };
    if (await isMerging(dir))
      return {
        status: "refused",
        files: [],
        message: "Your checkout is in the middle of a merge: finish or abort it first.",
      };
    if (await isAncestor(dir, sha, head))
      return { status: "up-to-date", message: `${branch} is already merged into your branch.` };
    const staged = (await gitText(dir, ["diff", "--cached", "--name-only", "-z", head])).split("\0").filter(Boolean);
    if (staged.length > 0) {
      // git merge itself refuses with staged changes; say so before anything starts.
      return {
        status: "refused",
        files: staged,
        message: `You have staged changes (${staged.length} file(s)): commit or unstage them, then merge again.`,
      };
    }
    const touched = (await gitText(dir, ["diff", "--name-only", "-z", `${head}...${sha}`])).split("\0").filter(Boolean);
    const mine = new Set(await changedPaths(dir));
    const overlap = touched.filter((f) => mine.has(f));
    if (overlap.length > 0) {
      return {
        status: "refused",
        files: overlap,
        message: `Your uncommitted changes touch ${overlap.length} file(s) that ${branch} also changes: commit or stash them, then merge again.`,
      };
    }
    const trial = await runGit(dir, ["merge-tree", "--write-tree", "--name-only", "-z", head, sha], {
      okExitCodes: [1],
    });
    if (trial.exitCode === 1) {
      // -z output: the tree, then conflicted file names, then an empty field, then messages.
      const parts = trial.stdout.split("\0");
      const files: string[] = [];
      for (let i = 1; i < parts.length && parts[i] !== ""; i++) files.push(parts[i]);
      return {
        status: "refused",
        files,
        message: `${branch} conflicts with your branch; nothing was changed. Merge it by hand, or ask the swarm to merge your branch first.`,
      };
    }
    // Last, so a merge that could not happen anyway says why first; git itself would stop only after starting.
    const noIdentity = await missingUserIdentity(dir);
    if (noIdentity !== undefined) return { status: "refused", files: [], message: noIdentity };
    const target = (await currentBranch(dir)) ?? "HEAD";
    await withLockRetry(() =>
      runGit(dir, ["merge", "--no-ff", "--no-edit", "-m", `Merge ${branch} (Swarmboard review)`, sha]),
    );
    const merged = await gitText(dir, ["rev-parse", "HEAD"]);
    return { status: "merged", sha: merged, message: `Merged ${branch} into ${target} (${merged.slice(0, 10)}).` };
  });
}
