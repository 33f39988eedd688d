// Review between agents, the tools: an author asks a peer for a review (request_review); the reviewer reads the
// branch (review_branch: its diff against the integration branch; read_peer_file: a file at the commit it read),
// runs its tests in a sandboxed scratch checkout (test_peer_branch, the merge verifier's own run), then approves
// the commit it read (approve_branch), asks for changes (request_changes: a message the author reads at its next
// tool return) or withdraws an approval (withdraw_approval). wait_for_review waits for the next of these aimed at
// the caller. The rule is src/core/reviewState.ts; every decision is also on the board, so people see it.
import type { z } from "zod";
import type { SwarmBoard } from "../../../core/swarmBoard";
import type { BoardEntry } from "../../../protocol/board";
import {
  approveBranchArgs,
  readPeerFileArgs,
  requestChangesArgs,
  requestReviewArgs,
  reviewBranchArgs,
  testPeerBranchArgs,
  waitForReviewArgs,
  withdrawApprovalArgs,
} from "../../../protocol/reviewTools";
import type { AgentWorkspace } from "../../../workspace/agentWorkspace";
import { readPeerFile, requirePeerHead, viewPeerBranch } from "../../../workspace/peerBranch";
import { defineTool, type CatalogTool, type ToolDefinition } from "./toolDefinition";
import { waitForReview } from "./reviewWait";

/** What the review tools need: who calls, the board (with its review ledger), the swarm's repository, the clock. */
export interface ReviewToolContext {
  readonly agent: string;
  readonly board: SwarmBoard;
  readonly workspace?: AgentWorkspace;
  readonly now: () => number;
  readonly signal?: AbortSignal;
}

export function workspaceOf(ctx: ReviewToolContext): AgentWorkspace {
  if (ctx.workspace === undefined) throw new Error("this agent has no view of the swarm's repository.");
  return ctx.workspace;
}

/** The branch's review state now, as one line (what the board and the tools show). */
export function reviewLine(ctx: ReviewToolContext, author: string, head: string | null): string {
  return ctx.board.reviews.state(author, head, Math.max(1, workspaceOf(ctx).reviewApprovals)).line;
}

async function postState(ctx: ReviewToolContext, text: string): Promise<BoardEntry> {
  return ctx.board.postFinding({ author: ctx.agent, kind: "FACT", text, time: ctx.now() });
}

function reviewTool<Schema extends z.ZodType, Result>(
  def: Omit<ToolDefinition<ReviewToolContext, Schema, Result>, "kind">,
): CatalogTool<ReviewToolContext> {
  return defineTool({ ...def, kind: "board" });
}

/** A decision the ledger refused: the agent reads why and what to do. */
function refused(why: string): never {
  throw new Error(why);
}

export const reviewTools: readonly CatalogTool<ReviewToolContext>[] = [
  reviewTool({
    name: "request_review",
    description: "Ask another agent (an idle one, not you) to review your branch at its current commit.",
    args: requestReviewArgs,
    run: async (ctx, a) => {
      const head = await requirePeerHead(workspaceOf(ctx).repo, ctx.agent);
      const held = ctx.board.claims.active(ctx.now()).find((l) => l.agent === a.reviewer);
      const busy = held && `claim ${held.claimId}: ${ctx.board.board.get(held.claimId)?.text ?? ""}`;
      const d = ctx.board.reviews.requestReview(ctx.agent, a.reviewer, head, a.note, busy);
      if (!d.ok) refused(d.why);
      await ctx.board.send(ctx.agent, a.reviewer, `${d.text}. Read it with review_branch ${ctx.agent}.`, ctx.now());
      return { requested: a.reviewer, sha: head };
    },
    meaning: (r) => ({ summary: `review of ${r.sha.slice(0, 10)} asked of ${r.requested}` }),
  }),
  reviewTool({
    name: "review_branch",
    description:
      "Read another agent's branch: its head commit, the files it changed and its diff against the integration branch.",
    args: reviewBranchArgs,
    run: async (ctx, a) => {
      const view = await viewPeerBranch(workspaceOf(ctx).repo, a.agent);
      ctx.board.reviews.noteSeen(ctx.agent, a.agent, view.head);
      return { ...view, review: reviewLine(ctx, a.agent, view.head) };
    },
    meaning: (r, a) => ({ summary: `review_branch ${a.agent} at ${r.head.slice(0, 10)}: ${r.files.length} files` }),
  }),
  reviewTool({
    name: "read_peer_file",
    description: "Read a file of another agent's branch, at the commit you last read with review_branch.",
    args: readPeerFileArgs,
    run: async (ctx, a) => {
      const sha = ctx.board.reviews.lastSeen(ctx.agent, a.agent);
      if (sha === undefined)
        refused(`call review_branch ${a.agent} first: its files are read at the commit you reviewed.`);
      return readPeerFile(workspaceOf(ctx).repo, sha, a.path);
    },
    meaning: (r) => ({ summary: `read_peer_file ${r.path}@${r.sha.slice(0, 10)}` }),
  }),
  reviewTool({
    name: "test_peer_branch",
    description:
      "Run the swarm's test command on another agent's branch head in a sandboxed scratch checkout, against the integration branch's run.",
    args: testPeerBranchArgs,
    run: async (ctx, a) => {
      const ws = workspaceOf(ctx);
      const verifier = ws.verifier;
      if (verifier === undefined) refused("this swarm has no test command, so there is nothing to run.");
      const view = await viewPeerBranch(ws.repo, a.agent);
      const verification = await verifier.verify("", view.head, view.integration, {}, { wholeTree: true });
      return { agent: a.agent, sha: view.head, ...verification };
    },
    meaning: (r) => ({
      summary: `tests of ${r.agent}@${r.sha.slice(0, 10)}: ${r.status}`,
      loopInputs: [r.status === "passed" ? "verified" : "verifyFailed"],
      progress: { testChange: true },
    }),
  }),
  reviewTool({
    name: "approve_branch",
    description:
      "Approve another agent's branch at the commit you read with review_branch (or `sha`); it must still be the branch's head.",
    args: approveBranchArgs,
    run: async (ctx, a) => {
      const head = await requirePeerHead(workspaceOf(ctx).repo, a.agent);
      const seen = ctx.board.reviews.lastSeen(ctx.agent, a.agent);
      // A short hash names the commit read when it starts it.
      const sha = a.sha !== undefined && seen?.startsWith(a.sha) === true ? seen : a.sha;
      const d = ctx.board.reviews.approve(ctx.agent, a.agent, sha, head, ctx.now());
      if (!d.ok) refused(`not approved: ${d.why}`);
      const posted = await postState(ctx, `${d.text} (${reviewLine(ctx, a.agent, head)})`);
      return { approved: a.agent, sha: head, posted };
    },
    // A review decision is a finding of the swarm (it is on the board), so it counts as progress.
    meaning: ({ posted, ...r }) => ({ summary: posted.text, reply: r, posted: [posted], progress: { finding: true } }),
  }),
  reviewTool({
    name: "request_changes",
    description: "Ask another agent for changes on its branch, with comments it reads at its next tool return.",
    args: requestChangesArgs,
    run: async (ctx, a) => {
      const head = await requirePeerHead(workspaceOf(ctx).repo, a.agent);
      const d = ctx.board.reviews.requestChanges(ctx.agent, a.agent, head, a.comments, ctx.now());
      if (!d.ok) refused(d.why);
      const sent = await ctx.board.send(
        ctx.agent,
        a.agent,
        `${d.text}. Commit a fix, then request_review again.`,
        ctx.now(),
      );
      return { asked: a.agent, sha: head, posted: ctx.board.board.get(sent.id) };
    },
    meaning: ({ posted, ...r }) => ({
      summary: `changes asked of ${r.asked} at ${r.sha.slice(0, 10)}`,
      reply: r,
      progress: { finding: true },
      posted: posted ? [posted] : [],
    }),
  }),
  reviewTool({
    name: "withdraw_approval",
    description: "Withdraw your approval of another agent's branch (it then needs approval again before a merge).",
    args: withdrawApprovalArgs,
    run: async (ctx, a) => {
      const d = ctx.board.reviews.withdraw(ctx.agent, a.agent);
      if (!d.ok) refused(d.why);
      const head = await requirePeerHead(workspaceOf(ctx).repo, a.agent);
      const posted = await postState(ctx, `${d.text} (${reviewLine(ctx, a.agent, head)})`);
      return { withdrawn: a.agent, posted };
    },
    meaning: ({ posted, ...r }) => ({ summary: posted.text, reply: r, posted: [posted] }),
  }),
  reviewTool({
    name: "wait_for_review",
    description:
      "Wait until a review aimed at you arrives (a review asked of you; an approval, change request or merge of your branch).",
    args: waitForReviewArgs,
    run: (ctx, a) => waitForReview(ctx, a.timeoutMs),
    meaning: (r) => ({
      summary:
        r.events.length > 0 ? `review: ${r.events.map((e) => e.kind).join(", ")}` : "wait_for_review: nothing yet",
    }),
  }),
];
