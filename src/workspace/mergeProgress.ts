// Merging an agent's progress, under the repository's queue: first the integration branch into the agent's
// branch (in the agent's worktree), then the agent's branch into the integration branch, which after the first
// step is a fast-forward done with a compare-and-swap `update-ref` (no second worktree, no checkout).
//
// A conflict in the first step is returned as data (files and hunks) and the agent's worktree is LEFT IN THE
// MERGE, with git's conflict markers in the files: the agent edits them and calls `commit`, which concludes the
// merge, then calls merge_progress again. `merge_progress {abort: true}` abandons the merge instead
// (`git merge --abort`), restoring the worktree to the agent's last commit.
//
// With a verifier (the recipe has a test command) the two steps are apart: after the first, the tests run in
// the agent's worktree outside the queue (others merge meanwhile), and the second publishes only if no test
// that passed on the integration branch fails, and only if that branch has not moved since (else: merge again).
// Tests that could not run at all (no sandbox, a command the policy does not allow, a timeout) refuse the merge:
// verification fails closed, unless the recipe says `verify: "off"` (then the merge is published unverified).
// Under the recipe's review only the first step runs: the integration branch comes into the author's branch
// (conflicts as above), peers approve that head, and the integrator publishes it (integrateBranch.ts).
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { MergeProgressResult, MergeVerification } from "../protocol/tools";
import { parseConflictHunks } from "./conflictHunks";
import { GitCommandError, gitText, runGit } from "./gitExec";
import { withLockRetry } from "./gitQueue";
import type { SandboxOptions } from "./bubblewrap";
import type { MergeVerifier } from "./mergeVerifier";
import { verificationRefusal } from "./mergeRefusal";
import { isDependencyLink } from "./dependencyFolders";
import { changedPaths, mergeHeadExists, refSha, worktreeHoldingRef } from "./repoFacts";
import { agentIdentity, type AgentWorktree, type SwarmRepository } from "./swarmRepository";

const MAX_CONFLICT_FILES = 20;

async function unmergedFiles(wt: string): Promise<string[]> {
  const out = await gitText(wt, ["diff", "--name-only", "--diff-filter=U", "-z"]);
  return out.split("\0").filter(Boolean);
}

async function conflictResult(wt: string, message: string): Promise<MergeProgressResult> {
  const files = await unmergedFiles(wt);
  const parsed = [];
  for (const f of files.slice(0, MAX_CONFLICT_FILES)) {
    const text = await readFile(path.join(wt, f), "utf8").catch(() => "");
    parsed.push(parseConflictHunks(f, text));
  }
  const more = files.length > MAX_CONFLICT_FILES ? ` (${files.length - MAX_CONFLICT_FILES} more files not shown)` : "";
  return { status: "conflict", files: parsed, message: message + more };
}

const RESOLVE_HINT =
  "Edit each file to keep the right text and remove the <<<<<<< ======= >>>>>>> markers, then call commit (it concludes the merge) and merge_progress again; or call merge_progress with abort: true to abandon this merge.";

export interface MergeProgressOptions {
  readonly abort: boolean;
  /** Names the protected entry a path falls under, if any: such changes are never published to the swarm. */
  readonly protectedBy?: (relPath: string) => string | undefined;
  /** Untracked links to the user's dependency folders: not changes, and never on a branch that is merged. */
  readonly dependencyLinks?: readonly string[];
  /** Runs the recipe's tests before publishing; absent: the merge is published unverified. */
  readonly verifier?: MergeVerifier;
  /** The sandbox the agent's commands run in (where the verifier runs the tests). */
  readonly sandboxOptions?: SandboxOptions;
  /** Test the merged commit in a full scratch checkout, not the worktree (a sparse worktree lacks files tests need). */
  readonly verifyWholeTree?: boolean;
  /** The recipe's review: only the first step runs (peers approve the result and the integrator publishes it). */
  readonly review?: { readonly approvals: number };
}

const NO_TEST_COMMAND = "unverified: the recipe names no test command, so no test ran before this merge";

export async function mergeProgress(
  repo: SwarmRepository,
  worktree: AgentWorktree,
  options: MergeProgressOptions,
): Promise<MergeProgressResult> {
  // The checks and an abort touch only this agent's worktree: shared. An agent's tool calls run one at a time,
  // so its worktree cannot change between these checks and the exclusive merge below.
  const early = await repo.queue.runShared(() => checkWorktree(repo, worktree, options));
  if (early) return early;
  const { review } = options;
  if (review !== undefined)
    return repo.queue.run(async () => {
      const brought = await bringIntegrationIn(repo, worktree);
      if ("status" in brought) return brought;
      return {
        status: "refused",
        message: `Not published: this swarm's recipe needs ${review.approvals} approval(s) from other agents before a merge, and its integrator merges (integrate_branch). ${repo.integrationBranch} is merged into your branch (now at ${brought.head.slice(0, 10)}). Ask an idle agent to review this head (request_review), then wait_for_review.`,
      };
    });
  const { verifier } = options;
  if (!verifier) {
    // Nothing to wait for between the two steps: one exclusive turn, so no other merge can come between.
    const unverified: MergeVerification = { status: "unverified", ...noTests(), note: NO_TEST_COMMAND };
    return repo.queue.run(async () => {
      const brought = await bringIntegrationIn(repo, worktree);
      return "status" in brought ? brought : publish(repo, worktree, brought, unverified);
    });
  }
  const merged = await repo.queue.run(() => bringIntegrationIn(repo, worktree));
  if ("status" in merged) return merged;
  const verification = await verifier.verify(
    worktree.path,
    merged.head,
    merged.integration,
    options.sandboxOptions ?? {},
    { wholeTree: options.verifyWholeTree === true },
  );
  const refusal = verificationRefusal(verification, verifier.options.publishUnverified === true);
  if (refusal) return refusal;
  return repo.queue.run(() => publish(repo, worktree, merged, verification));
}

function noTests(): Omit<MergeVerification, "status" | "note"> {
  return { passed: 0, failed: 0, broken: [], stillFailing: [] };
}

/** A result when the worktree is not ready for a merge (or an abort was asked for), undefined when it is. */
async function checkWorktree(
  repo: SwarmRepository,
  worktree: AgentWorktree,
  options: MergeProgressOptions,
): Promise<MergeProgressResult | undefined> {
  const wt = worktree.path;
  if (await mergeHeadExists(worktree.gitDir)) {
    if (options.abort) {
      await withLockRetry(() => runGit(wt, ["merge", "--abort"]));
      return { status: "aborted", message: "The merge was abandoned; your worktree is back at your last commit." };
    }
    if ((await unmergedFiles(wt)).length > 0)
      return conflictResult(wt, `The merge of ${repo.integrationBranch} is still in conflict. ${RESOLVE_HINT}`);
    return {
      status: "refused",
      message: "The conflicts are resolved but the merge is not committed yet: call commit, then merge_progress again.",
    };
  }
  if (options.abort) return { status: "refused", message: "There is no merge in progress to abort." };
  const links = options.dependencyLinks ?? [];
  if ((await changedPaths(wt)).filter((p) => !isDependencyLink(p, links)).length > 0) {
    return {
      status: "refused",
      message: "Your worktree has uncommitted changes: call commit (or revert them) before merging your progress.",
    };
  }
  // The commit tool refuses protected paths, but an approved shell command could have committed one.
  const check = options.protectedBy;
  if (check) {
    const changed = (await gitText(wt, ["diff", "--name-only", "-z", `refs/heads/${repo.integrationBranch}...HEAD`]))
      .split("\0")
      .filter(Boolean);
    const blocked = changed.filter(
      (f) => check(f) !== undefined || links.some((l) => f === l || f.startsWith(`${l}/`)),
    );
    if (blocked.length > 0) {
      return {
        status: "refused",
        message: `Your branch changes protected paths (${blocked.slice(0, 10).join(", ")}); they are never merged. Revert them in a new commit, then merge again.`,
      };
    }
  }
  return undefined;
}

/** The integration branch's commit and the agent's head once the first is merged into the second. */
interface BroughtIn {
  readonly integration: string;
  readonly head: string;
}

/** Step one, exclusive: the integration branch merged into the agent's branch, or why not (as a result). */
async function bringIntegrationIn(
  repo: SwarmRepository,
  worktree: AgentWorktree,
): Promise<BroughtIn | MergeProgressResult> {
  const wt = worktree.path;
  const integrationRef = `refs/heads/${repo.integrationBranch}`;
  const integration = await refSha(wt, integrationRef);
  if (!integration)
    return {
      status: "refused",
      message: `The integration branch ${repo.integrationBranch} is missing: the swarm was discarded or never started.`,
    };
  const holder = await worktreeHoldingRef(repo.commonDir, integrationRef);
  if (holder) {
    return {
      status: "refused",
      message: `${repo.integrationBranch} is checked out (git dir ${holder}); moving it would leave that checkout stale. Switch that checkout to another branch, then retry.`,
    };
  }
  try {
    await withLockRetry(() =>
      runGit(wt, ["merge", "--no-edit", "-m", `Merge ${repo.integrationBranch} into ${worktree.branch}`, integration], {
        identity: agentIdentity(worktree.agent),
      }),
    );
  } catch (err) {
    if (!(err instanceof GitCommandError)) throw err;
    if ((await unmergedFiles(wt)).length > 0) {
      return conflictResult(wt, `Bringing ${repo.integrationBranch} into your branch conflicts. ${RESOLVE_HINT}`);
    }
    // Not a content conflict (e.g. an untracked file in the way): leave nothing half done.
    if (await mergeHeadExists(worktree.gitDir)) await runGit(wt, ["merge", "--abort"]);
    return {
      status: "refused",
      message: `Merging ${repo.integrationBranch} into your branch failed, nothing was changed: ${err.output.trim().slice(0, 1000)}`,
    };
  }
  const head = await gitText(wt, ["rev-parse", "HEAD"]);
  if (head === integration)
    return {
      status: "up-to-date",
      integrationSha: integration,
      message: "Nothing new to merge: your branch and the integration branch are the same.",
    };
  return { integration, head };
}

/** Step two, exclusive: the integration branch moved to the agent's head, only if it is still where it was. */
async function publish(
  repo: SwarmRepository,
  worktree: AgentWorktree,
  { integration, head }: BroughtIn,
  verification: MergeVerification,
): Promise<MergeProgressResult> {
  const integrationRef = `refs/heads/${repo.integrationBranch}`;
  const now = await refSha(repo.topLevel, integrationRef);
  if (now !== integration)
    return {
      status: "refused",
      message: `${repo.integrationBranch} moved while your merge was checked (another agent merged): call merge_progress again to bring it in.`,
      verification,
    };
  // Compare-and-swap: moves the integration branch only if it is still where we merged it from.
  await withLockRetry(() =>
    runGit(repo.topLevel, [
      "update-ref",
      "-m",
      `swarmboard: merge ${worktree.branch}`,
      integrationRef,
      head,
      integration,
    ]),
  );
  const tested = verification.status === "passed" ? `verified (${verification.note})` : verification.note;
  return {
    status: "merged",
    integrationSha: head,
    message: `Merged ${worktree.branch} into ${repo.integrationBranch} (${head.slice(0, 10)}), ${tested}.`,
    verification,
  };
}
