// integrate_branch: the integrator merges a peer's branch once it holds the approvals the recipe asks for at its
// current commit (src/core/reviewState.ts decides), verified like any merge (src/workspace/integrateBranch.ts).
// The integrator calls it branch by branch, so approved branches merge in the order it takes them, one at a time
// under the repository's queue; what happened is posted on the board as a PATCH_SUMMARY.
import { integrateBranchArgs } from "../../../protocol/reviewTools";
import type { BoardEntry } from "../../../protocol/board";
import type { MergeProgressResult } from "../../../protocol/tools";
import { integrateApproved } from "../../../workspace/integrateBranch";
import { peerHead } from "../../../workspace/peerBranch";
import { reviewLine, workspaceOf, type ReviewToolContext } from "./reviewTools";
import { defineTool, type CatalogTool } from "./toolDefinition";

async function integrate(
  ctx: ReviewToolContext,
  author: string,
): Promise<MergeProgressResult & { posted?: BoardEntry }> {
  const ws = workspaceOf(ctx);
  const needed = ws.reviewApprovals;
  if (needed === 0)
    return {
      status: "refused",
      message: "This swarm's recipe has no review: each agent merges its own progress (merge_progress).",
    };
  const head = await peerHead(ws.repo, author);
  const check = ctx.board.reviews.mergeCheck(author, head, needed);
  if (!check.ok || head === null) {
    const why = check.ok ? `${author} has no branch.` : check.why;
    const posted = await ctx.board.postFinding({
      author: ctx.agent,
      kind: "OBSERVED",
      text: `refused to integrate ${author}'s branch: ${why}`,
      time: ctx.now(),
    });
    return { status: "refused", message: `Not merged: ${why}`, posted };
  }
  const result = await integrateApproved(ws.repo, {
    author,
    approved: head,
    integrator: ctx.agent,
    ...(ws.verifier ? { verifier: ws.verifier } : {}),
  });
  if (result.status === "merged") ctx.board.reviews.markMerged(author, head, ctx.agent);
  const what = result.status === "merged" ? `integrated ${author}'s branch` : `refused to integrate ${author}'s branch`;
  const posted = await ctx.board.postFinding({
    author: ctx.agent,
    kind: "PATCH_SUMMARY",
    text: `${what} (${reviewLine(ctx, author, head)}): ${result.message}`,
    time: ctx.now(),
  });
  return { ...result, posted };
}

export const integrateTool: CatalogTool<ReviewToolContext> = defineTool({
  name: "integrate_branch",
  kind: "workspace",
  description:
    "Integrator: merge an agent's approved branch into the integration branch (refused when it lacks approvals at its current commit, moved past them, conflicts or breaks a passing test).",
  args: integrateBranchArgs,
  run: (ctx, a) => integrate(ctx, a.agent),
  meaning: ({ posted, ...r }, a) => ({
    summary: `integrate ${a.agent}: ${r.status}`,
    reply: r,
    loopInputs: r.status === "merged" ? ["acted", "verified", "merged"] : [],
    posted: posted ? [posted] : [],
    ...(r.status === "refused" || r.status === "conflict" ? { error: r.message } : {}),
  }),
});
