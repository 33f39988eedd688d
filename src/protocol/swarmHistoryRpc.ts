// Host <-> worker methods over past swarms of a repository: list them, resume an interrupted one, clean one up
// (a dry run first, then the removal of exactly what the user saw). The worker serves them; the host calls them.
import { z } from "zod";
import { engineSettingsSchema } from "./engine";
import { defineMethod } from "./envelope";
import { swarmEventSchema } from "./swarmEvents";
import { askUserTimeoutSchema } from "./steering";
import { swarmOutcomeSchema } from "./swarmRecord";
import { turnScriptSchema } from "./turnScript";
import { startSwarmParams, thisRunOnly } from "./swarmRpc";

/**
 * A branch measured against the user's branch (HEAD): "merged" when its commits are reachable from it,
 * "no-commits" when it never moved from where it started, "unmerged" otherwise.
 */
export const branchStateSchema = z.object({
  branch: z.string(),
  /** null for the integration branch. */
  agent: z.string().nullable(),
  sha: z.string(),
  state: z.enum(["merged", "unmerged", "no-commits"]),
  /** Commits on it that the user's branch does not have. */
  unmergedCommits: z.number().int().nonnegative(),
  /** For an agent branch: whether the swarm's integration branch holds all of it. */
  inIntegration: z.boolean(),
});
export type BranchState = z.infer<typeof branchStateSchema>;

export const pastSwarmSchema = z.object({
  swarmId: z.string(),
  goal: z.string(),
  recipe: z.string(),
  /** "running" while a live process owns it; "interrupted" when its owner died before it ended. */
  outcome: z.union([swarmOutcomeSchema, z.enum(["interrupted", "running"])]),
  reason: z.string(),
  launchedBy: z.enum(["cli", "vscode"]),
  createdAt: z.number(),
  endedAt: z.number().optional(),
  cleanedUpAt: z.number().optional(),
  stateDir: z.string(),
  /** Whether the state dir (board, report) is still there. */
  stateDirExists: z.boolean(),
  reportPath: z.string().optional(),
  integrationBranch: z.string(),
  branches: z.array(branchStateSchema),
  /** Board entries that are findings (OBSERVED, FACT, FAIL, PATCH_SUMMARY). */
  findings: z.number().int().nonnegative(),
});
export type PastSwarm = z.infer<typeof pastSwarmSchema>;

const repositoryTarget = z.object({ workspace: z.string().min(1) });

export const listSwarmsMethod = defineMethod(
  "history/list",
  repositoryTarget,
  z.object({
    /** Newest first. */
    swarms: z.array(pastSwarmSchema),
    /** Registry files that could not be read, each with what to do. */
    problems: z.array(z.string()),
  }),
);

/**
 * What a past swarm left on disk, as events the host folds like a live stream: from its events trace the
 * swarm's start, its agents and their states and its end (the bulky text, call and stats events are left out),
 * then every entry of its board (`board.jsonl`, the findings' source of truth) as board-entry events.
 * `traceBytes`: read the trace only up to there (what swarm/follow answered for a running swarm: the later events
 * reach the follower live).
 */
export const pastSwarmEventsMethod = defineMethod(
  "history/events",
  repositoryTarget.extend({ swarmId: z.string().min(1), traceBytes: z.number().int().nonnegative().optional() }),
  z.object({
    events: z.array(swarmEventSchema),
    /** Files that were missing or unreadable, each with what it means for what is shown. */
    problems: z.array(z.string()),
  }),
);

const resumeOverrides = startSwarmParams
  .pick({
    agents: true,
    kvCells: true,
    memoryBudget: true,
    gpu: true,
    kvCacheType: true,
    budgetMs: true,
    agentRules: true,
    sparseCheckoutAboveMiB: true,
    standing: true,
  })
  .partial();

export const resumeSwarmMethod = defineMethod(
  "history/resume",
  repositoryTarget.extend({
    swarmId: z.string().min(1),
    /** Overrides the saved model (it was moved or deleted). */
    modelPath: z.string().min(1).optional(),
    threads: z.number().int().min(1).max(256).optional(),
    /** The engine now (a remote one with its key from SecretStorage; the saved inputs keep no key). */
    engine: engineSettingsSchema.optional(),
    /** Seconds an agent's question waits now (the setting may have changed); absent: what the first run used. */
    askUserTimeoutSeconds: askUserTimeoutSchema.optional(),
    /** Scripted turns for the resumed agents (tests and demos), as in swarm/start. */
    script: turnScriptSchema.optional(),
    ...thisRunOnly.shape,
    /** The CLI's flags on --resume (`swarmboard run --resume --agents 4`), each winning over the saved one. */
    ...resumeOverrides.shape,
  }),
  /** `standing`: a standing swarm (Start Watching): the host sends it the editor's errors again. */
  z.object({ swarmId: z.string(), standing: z.boolean() }),
);

export const cleanUpPlanSchema = z.object({
  swarmId: z.string(),
  branches: z.array(branchStateSchema),
  worktrees: z.array(z.object({ path: z.string(), branch: z.string(), uncommitted: z.boolean() })),
  /** Branches whose commits would be lost (not reachable from the user's branch). */
  unmerged: z.array(z.string()),
  /** Worktrees holding uncommitted changes that would be lost. */
  uncommitted: z.array(z.string()),
});
export type CleanUpPlan = z.infer<typeof cleanUpPlanSchema>;

export const cleanUpSwarmMethod = defineMethod(
  "history/cleanUp",
  repositoryTarget.extend({
    swarmId: z.string().min(1),
    /**
     * Absent: a dry run that only returns the plan. Present: removes the swarm's branches and worktrees, but only
     * when every unmerged branch and uncommitted worktree found now is in these lists (what the user saw).
     */
    confirm: z.object({ unmerged: z.array(z.string()), uncommitted: z.array(z.string()) }).optional(),
  }),
  z.object({
    plan: cleanUpPlanSchema,
    removed: z.object({ worktrees: z.array(z.string()), branches: z.array(z.string()) }).optional(),
  }),
);

export type ResumeSwarmParams = z.infer<typeof resumeSwarmMethod.params>;
