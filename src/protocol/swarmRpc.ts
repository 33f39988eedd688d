// Host <-> worker methods of a swarm: start, stop, answer an approval; the event stream; the review of a
// swarm's branches; models. The worker serves them (src/worker/main.ts); the host calls them.
import { z } from "zod";
import { engineSettingsSchema } from "./engine";
import { defineMethod, defineNotification } from "./envelope";
import { gpuChoiceSchema, kvCacheTypeSchema, kvPlacementSchema, modelFactsSchema } from "./runtime";
import { swarmEventSchema } from "./swarmEvents";
import { branchDiffSchema, branchReviewSchema, mergeIntoCurrentResultSchema } from "./userReview";
import { turnScriptSchema } from "./turnScript";
import { commandPolicySchema, memoryBudgetSchema, poolShareCellsSchema, poolSwarmsSchema } from "./settings";
import { webSettingsSchema } from "./webTools";
import { askUserTimeoutSchema } from "./steering";
import { standingParamsSchema } from "./triggers";
import { sparseThresholdSchema } from "./recipe";

/** The longest goal a swarm takes (it goes into every agent's trunk). */
export const maxGoalChars = 20_000;

/**
 * What a launch or resume asks for this run alone (the CLI's flags): the worker runs with it and saves none of it,
 * so a later resume goes back to the recipe's own.
 */
export const thisRunOnly = z.object({
  /** Tokens an agent may write before each call (--thinking-tokens); default the recipe's budgets.thinkingTokens. */
  thinkingTokens: z.number().int().positive().optional(),
  /** A standing swarm's recorded trigger streams (--triggers: files the worker reads, one JSON trigger a line). */
  triggerFiles: z.array(z.string().min(1)).max(16).optional(),
});
export type ThisRunOnly = z.infer<typeof thisRunOnly>;

export const startSwarmParams = z.object({
  goal: z.string().min(1).max(maxGoalChars),
  /** A built-in or workspace recipe name, or a recipe file path. */
  recipe: z.string().min(1),
  agents: z.number().int().min(1).max(64).optional(),
  modelPath: z.string().min(1),
  /** The user's git repository (any folder inside it). */
  workspace: z.string().min(1),
  /** Outside the user's tree: the extension's storage. */
  stateDir: z.string().min(1),
  /** Who launched it, for the swarm's record and history (a shared worker serves windows and the CLI alike). */
  launchedBy: z.enum(["cli", "vscode"]).optional(),
  threads: z.number().int().min(1).max(256),
  /** A cap on the KV pool; without it the pool is sized from free memory. */
  kvCells: z.number().int().min(256).optional(),
  /** Most memory the KV pool may take ("6GB": --memory-budget, swarmboard.memoryBudget); caps the pool's cells. */
  memoryBudget: memoryBudgetSchema.optional(),
  /** The most KV cells this swarm may take of a pool it shares (--pool-share, swarmboard.poolShareCells); default a fair share. */
  poolShareCells: poolShareCellsSchema.optional(),
  /** How many swarms a pool this swarm creates is sized for (--pool-swarms, swarmboard.poolSwarms); default 1. */
  poolSwarms: poolSwarmsSchema.optional(),
  gpu: gpuChoiceSchema.optional(),
  kvCacheType: kvCacheTypeSchema.optional(),
  /** Which engine computes the tokens (default local); a remote one's API key travels only in this message. */
  engine: engineSettingsSchema.optional(),
  budgetMs: z.number().int().positive().optional(),
  policy: commandPolicySchema,
  /** Scripted turns (tests and demos): forced tokens through the real decode path. */
  script: turnScriptSchema.optional(),
  /** Put the repository's agent-rules files into the trunk (the `swarmboard.agentRules` setting); default true. */
  agentRules: z.boolean().optional(),
  /** How agents reach the web (the `swarmboard.web*` settings); default: no allowed host, no search. */
  web: webSettingsSchema.optional(),
  /** Seconds an agent's ask_user question waits for an answer (`swarmboard.askUserTimeoutSeconds`); default 300. */
  askUserTimeoutSeconds: askUserTimeoutSchema.optional(),
  /** A standing swarm (the `watch` recipe or one with a router): it takes triggers until stopped. */
  standing: standingParamsSchema.optional(),
  /** Sparse writers' worktrees above this many MiB per checkout (`swarmboard.sparseCheckoutAboveMiB`); wins over the recipe's. */
  sparseCheckoutAboveMiB: sparseThresholdSchema.optional(),
  ...thisRunOnly.shape,
});
export type StartSwarmParams = z.infer<typeof startSwarmParams>;

export const startSwarmMethod = defineMethod("swarm/start", startSwarmParams, z.object({ swarmId: z.string() }));

export const stopSwarmMethod = defineMethod(
  "swarm/stop",
  z.object({ swarmId: z.string() }),
  z.object({ stopping: z.boolean() }),
);

export const stopAgentMethod = defineMethod(
  "swarm/stopAgent",
  z.object({ swarmId: z.string(), agentId: z.string() }),
  z.object({ stopping: z.boolean() }),
);

/** The text of a person's message. */
export const messageTextSchema = z
  .string()
  .trim()
  .min(1, "expected a message")
  .max(8_000, "a message is at most 8,000 characters");

/** A person's message: to one agent (read when its current tool call returns) or to the whole swarm. */
export const messageSwarmMethod = defineMethod(
  "swarm/message",
  z.object({
    swarmId: z.string(),
    /** An agent's id, or "swarm" for every agent. */
    to: z.string().min(1),
    text: messageTextSchema,
  }),
  /** `asTrigger`: a standing swarm took a message to "swarm" as a trigger (its id in messageId) for the router. */
  z.object({ messageId: z.string(), to: z.string(), asTrigger: z.boolean().optional() }),
);

export const answerApprovalMethod = defineMethod(
  "swarm/answerApproval",
  z.object({
    swarmId: z.string(),
    requestId: z.string(),
    /** "once" runs this command now; "swarm" also allows the same command for the rest of this swarm. */
    decision: z.enum(["once", "swarm", "deny"]),
  }),
  z.object({ known: z.boolean() }),
);

/** A batch of events of one swarm, in order (the worker throttles them). */
export const swarmEventsNotification = defineNotification(
  "swarm/events",
  z.object({ swarmId: z.string(), events: z.array(swarmEventSchema) }),
);

const reviewTarget = z.object({
  workspace: z.string().min(1),
  stateDir: z.string().min(1),
  swarmId: z.string().min(1),
});

export const listBranchesMethod = defineMethod(
  "review/branches",
  reviewTarget,
  z.object({ branches: z.array(branchReviewSchema) }),
);

export const changedFilesSchema = z.object({
  base: z.string(),
  files: z.array(
    z.object({
      path: z.string(),
      status: z.enum(["added", "modified", "deleted", "renamed", "other"]),
      oldPath: z.string().optional(),
    }),
  ),
});
export type ChangedFiles = z.infer<typeof changedFilesSchema>;

export const changedFilesMethod = defineMethod(
  "review/changedFiles",
  reviewTarget.extend({ branch: z.string() }),
  changedFilesSchema,
);

export const fileAtRefMethod = defineMethod(
  "review/fileAtRef",
  reviewTarget.extend({ ref: z.string().min(1), path: z.string().min(1) }),
  z.object({ exists: z.boolean(), content: z.string(), truncated: z.boolean() }),
);

export const branchDiffMethod = defineMethod(
  "review/diff",
  reviewTarget.extend({ branch: z.string() }),
  branchDiffSchema,
);

export const mergeBranchMethod = defineMethod(
  "review/merge",
  reviewTarget.extend({ branch: z.string() }),
  mergeIntoCurrentResultSchema,
);

export const discardBranchMethod = defineMethod(
  "review/discard",
  reviewTarget.extend({ agentId: z.string().optional() }),
  z.object({ removedWorktrees: z.array(z.string()), deletedBranches: z.array(z.string()) }),
);

export const modelFactsMethod = defineMethod(
  "model/facts",
  z.object({
    modelPath: z.string().min(1),
    threads: z.number().int().min(1),
    /** A cap on the pool (swarmboard.kvCellsBudget); without it the pool is sized from free memory. */
    kvCells: z.number().int().min(256).optional(),
    /** The pool's memory budget (swarmboard.memoryBudget), as in swarm/start. */
    memoryBudget: memoryBudgetSchema.optional(),
    gpu: gpuChoiceSchema.optional(),
    kvCacheType: kvCacheTypeSchema.optional(),
  }),
  z.object({
    facts: modelFactsSchema,
    mode: z.enum(["shared-cells", "copy-mode"]),
    fileBytes: z.number().int().nonnegative(),
    /** How many agents fit in the pool with a 2,048-token trunk and 1,024-token tails. */
    agentsThatFit: z.number().int().nonnegative(),
    poolBytes: z.number().nonnegative(),
    /** The pool a swarm of the default recipe would get, and why that many cells. */
    poolCells: z.number().int().nonnegative(),
    poolOrigin: z.string(),
    /** A cell's type and cost at the asked KV type. */
    kvType: z.string(),
    bytesPerCell: z.number().positive(),
    placement: kvPlacementSchema,
  }),
);

/**
 * Whether a model can run agents that generate freely, judged from its GGUF metadata before its weights load: a
 * model with no chat template, or whose template has no tool calling, gets the reason and what to pick instead.
 */
export const modelToolCallingMethod = defineMethod(
  "model/toolCalling",
  z.object({ modelPath: z.string().min(1) }),
  z.object({ refusal: z.string().optional() }),
);

export const pullModelMethod = defineMethod(
  "model/pull",
  z.object({ uri: z.string().min(1), dir: z.string().optional() }),
  z.object({ path: z.string() }),
);

export const pullProgressNotification = defineNotification(
  "model/pullProgress",
  z.object({ uri: z.string(), downloadedBytes: z.number().nonnegative(), totalBytes: z.number().nonnegative() }),
);

/**
 * What the launch wizard suggests a recipe from (src/core/recipeSuggestion.ts): read from the folder without
 * running anything (src/workspace/projectFacts.ts); a fact that cannot be read is absent.
 */
export const projectFactsMethod = defineMethod(
  "project/facts",
  z.object({ workspace: z.string().min(1) }),
  z.object({
    testCommand: z.string().optional(),
    failingTests: z.number().int().nonnegative().optional(),
    todoComments: z.number().int().nonnegative().optional(),
  }),
);
