// The integrator's merge of a peer's approved branch, with no worktree: the integration branch and the approved
// commit are merged with `git merge-tree --write-tree` (a fast-forward when the branch already holds the
// integration branch), the result is tested like any verified merge (in a scratch checkout, against the run on the
// integration branch), and published with a compare-and-swap `update-ref`. Whether the branch is approved at the
// commit is decided by the caller (src/core/reviewState.ts); this refuses a conflict, a test that broke, tests
// that could not run, and an integration branch that moved meanwhile, each with what to do.
import type { MergeProgressResult, MergeVerification } from "../protocol/tools";
import { agentBranch } from "./branchNames";
import { gitText, runGit } from "./gitExec";
import { withLockRetry } from "./gitQueue";
import { verificationRefusal } from "./mergeRefusal";
import type { MergeVerifier } from "./mergeVerifier";
import { isAncestor, refSha } from "./repoFacts";
import { agentIdentity, type SwarmRepository } from "./swarmRepository";

const UNVERIFIED: MergeVerification = {
  status: "unverified",
  passed: 0,
  failed: 0,
  broken: [],
  stillFailing: [],
  note: "unverified: the recipe names no test command, so no test ran before this merge",
};

/** The commit to publish (the approved one, or its merge with the integration branch), or a refusal. */
async function mergedCommit(
  repo: SwarmRepository,
  author: string,
  approved: string,
  integrator: string,
): Promise<{ integration: string; target: string } | MergeProgressResult> {
  const integration = await refSha(repo.topLevel, `refs/heads/${repo.integrationBranch}`);
  if (integration === null)
    return { status: "refused", message: `The integration branch ${repo.integrationBranch} is missing.` };
  if (await isAncestor(repo.topLevel, approved, integration))
    return { status: "up-to-date", integrationSha: integration, message: `${author}'s branch is merged already.` };
  if (await isAncestor(repo.topLevel, integration, approved)) return { integration, target: approved };
  const tree = await runGit(repo.topLevel, ["merge-tree", "--write-tree", "--name-only", integration, approved], {
    okExitCodes: [1],
  });
  const [treeSha = "", ...rest] = tree.stdout.split("\n");
  if (tree.exitCode === 1) {
    const files = rest.filter((l) => l.trim() !== "" && !l.startsWith("Auto-merging") && !l.startsWith("CONFLICT"));
    return {
      status: "refused",
      message: `Not merged: ${agentBranch(repo.swarm, author)} conflicts with ${repo.integrationBranch} in ${files.slice(0, 10).join(", ") || "some files"}. Ask ${author} to bring ${repo.integrationBranch} in and resolve them; its new head then needs approval again.`,
    };
  }
  const target = await gitText(
    repo.topLevel,
    [
      "commit-tree",
      treeSha.trim(),
      "-p",
      integration,
      "-p",
      approved,
      "-m",
      `Merge ${agentBranch(repo.swarm, author)} (approved at ${approved.slice(0, 10)})`,
    ],
    { identity: agentIdentity(integrator) },
  );
  return { integration, target };
}

/** Merges `author`'s branch at the `approved` commit into the integration branch, verified when there are tests. */
export async function integrateApproved(
  repo: SwarmRepository,
  how: { author: string; approved: string; integrator: string; verifier?: MergeVerifier },
): Promise<MergeProgressResult> {
  const { author, approved, integrator, verifier } = how;
  const merged = await repo.queue.run(() => mergedCommit(repo, author, approved, integrator));
  if ("status" in merged) return merged;
  let verification = UNVERIFIED;
  if (verifier !== undefined) {
    verification = await verifier.verify("", merged.target, merged.integration, {}, { wholeTree: true });
    const refusal = verificationRefusal(verification, verifier.options.publishUnverified === true);
    if (refusal !== undefined)
      return {
        ...refusal,
        message: refusal.message.replace(
          /The integration branch did not move; your branch now holds it merged in\.[^]*$/,
          `The integration branch did not move. Ask ${author} to fix it (request_changes); its new head then needs approval again.`,
        ),
      };
  }
  return repo.queue.run(async () => {
    const ref = `refs/heads/${repo.integrationBranch}`;
    if ((await refSha(repo.topLevel, ref)) !== merged.integration)
      return {
        status: "refused",
        message: `${repo.integrationBranch} moved while this merge was checked: call integrate_branch ${author} again.`,
        verification,
      };
    await withLockRetry(() =>
      runGit(repo.topLevel, [
        "update-ref",
        "-m",
        `swarmboard: integrate ${author}`,
        ref,
        merged.target,
        merged.integration,
      ]),
    );
    const tested = verification.status === "passed" ? `verified (${verification.note})` : verification.note;
    return {
      status: "merged",
      integrationSha: merged.target,
      message: `Merged ${agentBranch(repo.swarm, author)} at ${approved.slice(0, 10)} into ${repo.integrationBranch} (${merged.target.slice(0, 10)}), ${tested}.`,
      verification,
    };
  });
}
