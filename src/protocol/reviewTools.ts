// Review between agents: the argument schemas of the tools a reviewer, an author and the integrator call
// (src/worker/agent/tools/reviewTools.ts), and the recipe's review section.
import { z } from "zod";
import { relativePathSchema } from "./board";

const agentField = z.string().min(1).max(64).describe("the agent whose branch this is about (e.g. agent-1)");
const shaField = z
  .string()
  .regex(/^[0-9a-f]{7,40}$/, "expected a commit hash (7 to 40 hex digits)")
  .describe("the commit you reviewed (default: the head you last read with review_branch)");

/** A recipe's `review`: merges need this many approvals at the branch's head, and an integrator merges. */
export const reviewPolicySchema = z.strictObject({
  approvals: z
    .number({ error: "expected a whole number of approvals" })
    .int("expected a whole number of approvals")
    .min(1, "expected at least 1 approval")
    .max(8, "expected at most 8 approvals"),
});
export type ReviewPolicy = z.infer<typeof reviewPolicySchema>;

export const requestReviewArgs = z.object({
  reviewer: z.string().min(1).max(64).describe("an idle agent, not you (see roster)"),
  note: z.string().max(2000).default("").describe("what to look at"),
});
export const reviewBranchArgs = z.object({ agent: agentField });
export const readPeerFileArgs = z.object({
  agent: agentField,
  path: relativePathSchema.describe("a file of that branch"),
});
export const testPeerBranchArgs = z.object({ agent: agentField });
export const approveBranchArgs = z.object({ agent: agentField, sha: shaField.optional() });
export const requestChangesArgs = z.object({
  agent: agentField,
  comments: z.string().min(1).max(4000).describe("what to change and why; the author reads it at its next call"),
});
export const withdrawApprovalArgs = z.object({ agent: agentField });
export const waitForReviewArgs = z.object({
  timeoutMs: z.number().int().min(0).max(600_000).default(120_000).describe("longest wait"),
});
export const integrateBranchArgs = z.object({ agent: agentField });

export const reviewToolNames = [
  "request_review",
  "review_branch",
  "read_peer_file",
  "test_peer_branch",
  "approve_branch",
  "request_changes",
  "withdraw_approval",
  "wait_for_review",
] as const;
