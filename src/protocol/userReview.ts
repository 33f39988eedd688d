// The user's side of the workspace: approvals and review, as they cross the worker/host boundary.
import { z } from "zod";
import { truncated } from "./tools";

/** A command the policy asks about, sent to the host for the user to answer. */
export const approvalRequestSchema = z.object({
  id: z.string().min(1),
  agent: z.string(),
  command: z.string(),
  /** The worktree the command would run in. */
  cwd: z.string(),
  /** Why the policy asks, one line each. */
  reasons: z.array(z.string()),
  /** Whether it would run inside bubblewrap. */
  sandboxed: z.boolean(),
  /** What "allow for this swarm" allows from then on (fetch_url: the host); default: the same command. */
  rememberAs: z.string().optional(),
});
export type ApprovalRequest = z.infer<typeof approvalRequestSchema>;

/** The user's checkout when a swarm starts: dirty or not, and what to tell them. */
export const userTreeStateSchema = z.object({
  head: z.string(),
  dirty: z.boolean(),
  /** Uncommitted paths (staged, unstaged, untracked), at most 50. */
  changed: z.array(z.string()),
  message: z.string(),
});
export type UserTreeState = z.infer<typeof userTreeStateSchema>;

/** One branch of a swarm as the review shows it. */
export const branchReviewSchema = z.object({
  branch: z.string(),
  /** The agent id, or null for the integration branch. */
  agent: z.string().nullable(),
  sha: z.string(),
  /** What the branch is compared with: the integration branch for agents, the user's HEAD for integration. */
  base: z.string(),
  ahead: z.number().int(),
  behind: z.number().int(),
  files: z.number().int(),
  insertions: z.number().int(),
  deletions: z.number().int(),
  /** True when the base already contains every commit of the branch. */
  merged: z.boolean(),
  /** The CI and automation files (.github/workflows/..., Jenkinsfile, .husky/...) the branch changes. */
  touchesAutomation: z.array(z.string()).default([]),
});
export type BranchReview = z.infer<typeof branchReviewSchema>;

export const branchDiffSchema = z.object({ diff: z.string(), truncated, base: z.string() });
export type BranchDiff = z.infer<typeof branchDiffSchema>;

export const mergeIntoCurrentResultSchema = z.discriminatedUnion("status", [
  z.object({ status: z.literal("merged"), sha: z.string(), message: z.string() }),
  z.object({ status: z.literal("up-to-date"), message: z.string() }),
  z.object({ status: z.literal("refused"), files: z.array(z.string()), message: z.string() }),
]);
export type MergeIntoCurrentResult = z.infer<typeof mergeIntoCurrentResultSchema>;

export const cleanupReportSchema = z.object({
  removedWorktrees: z.array(z.string()),
  keptWorktrees: z.array(z.object({ path: z.string(), reason: z.string() })),
  deletedBranches: z.array(z.string()),
  keptBranches: z.array(z.object({ branch: z.string(), reason: z.string() })),
});
export type CleanupReport = z.infer<typeof cleanupReportSchema>;
