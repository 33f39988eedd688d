// What a swarm leaves on disk so that another process (a reloaded window, a later CLI run) can list, resume and
// clean it up: the registry record (one file per swarm under the repository's git common dir) and the inputs the
// swarm was started with (`settings.json` in its state dir). Both are read back by another process: parse them.
import { z } from "zod";
import { commandPolicySchema } from "./settings";
import { startSwarmParams } from "./swarmRpc";

export const swarmOutcomeSchema = z.enum(["completed", "budget", "stopped", "failed"]);
export type SwarmOutcome = z.infer<typeof swarmOutcomeSchema>;

/** The process that runs (or ran) the swarm: a record without an end whose owner is gone was interrupted. */
export const swarmOwnerSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  /** What tells this process from a later one with its pid (src/workspace/processAlive.ts); older records lack it. */
  started: z.string().optional(),
});
export type SwarmOwner = z.infer<typeof swarmOwnerSchema>;

export const swarmRecordSchema = z.object({
  swarmId: z.string().min(1),
  /** The repository's working tree root at launch. */
  workspace: z.string().min(1),
  /** Board, events trace, recipe, settings, report and the agents' worktrees. */
  stateDir: z.string().min(1),
  goal: z.string(),
  /** The recipe's name. */
  recipe: z.string(),
  launchedBy: z.enum(["cli", "vscode"]),
  /** Epoch ms. */
  createdAt: z.number(),
  /** The commit the integration branch started at (tells an empty branch from a merged one). */
  baseSha: z.string().optional(),
  owner: swarmOwnerSchema,
  /** Absent while it runs, and after an interruption. */
  ended: z
    .object({ outcome: swarmOutcomeSchema, reason: z.string(), at: z.number(), reportPath: z.string().optional() })
    .optional(),
  /** Set when its branches and worktrees were removed. */
  cleanedUpAt: z.number().optional(),
  version: z.string(),
});
export type SwarmRecord = z.infer<typeof swarmRecordSchema>;

/**
 * The inputs a swarm was started with (`<stateDir>/settings.json`): enough to resume it from any folder. It is the
 * start request without its state dir (the folder of this file) and its script (a test's forced turns), with the
 * record's id and version; a few bounds are looser, since the CLI takes any positive count and older runs saved
 * what they were given. Older CLI runs wrote more keys (and no swarmId): unknown keys are kept, a missing swarmId is
 * derived. The engine is saved without its API key (a resume asks the host or the environment again).
 */
export const swarmInputsSchema = startSwarmParams
  .omit({
    stateDir: true,
    script: true,
    launchedBy: true,
    thinkingTokens: true,
    triggerFiles: true,
  })
  .extend({
    swarmId: z.string().min(1).optional(),
    goal: z.string().min(1),
    agents: z.number().int().positive().optional(),
    threads: z.number().int().positive(),
    kvCells: z.number().int().positive().optional(),
    /** The CLI saves none: it runs the default policy. */
    policy: commandPolicySchema.optional(),
    /** The CLI's --approve-asks (nobody there to ask). */
    approveAsks: z.boolean().optional(),
    version: z.string().optional(),
  });
export type SwarmInputs = z.infer<typeof swarmInputsSchema>;
export const savedSwarmInputsSchema = swarmInputsSchema.passthrough();
