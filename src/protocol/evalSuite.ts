// `swarmboard eval`: what a task of a suite is (its manifest, `task.json`, beside the repository's files and the
// hidden acceptance tests), and what a run of the suite reports (the JSON that --json writes for other tools).
import { z } from "zod";
import { scriptedCallSchema } from "./turnScript";

export const evalTaskKinds = ["bug", "missing-function", "refactor", "todo"] as const;
export const evalTaskKindSchema = z.enum(evalTaskKinds);
export type EvalTaskKind = z.infer<typeof evalTaskKindSchema>;

/** A folder name inside the task's folder: no absolute path, no `..`. */
const taskFolderSchema = z
  .string()
  .min(1, "expected a folder name inside the task's folder")
  .refine((p) => !p.startsWith("/") && !p.split(/[\\/]/).includes(".."), "expected a folder inside the task's folder");

/**
 * A forced call of a trajectory: a turn-script call whose arguments may take a value from a file of the task's
 * folder (`argsFromFiles: {"content": "solution/src/median.js"}`), so solutions stay readable files.
 */
export const trajectoryCallSchema = scriptedCallSchema.extend({
  argsFromFiles: z.record(z.string().min(1), taskFolderSchema).optional(),
});
export type TrajectoryCall = z.infer<typeof trajectoryCallSchema>;

/** Calls by agent id (`agent-1`, `agent-2`, ...), as in a turn script. */
export const trajectorySchema = z.record(
  z.string().regex(/^agent-[1-9]\d*$/, "expected an agent id such as agent-1"),
  z.array(trajectoryCallSchema).min(1, "expected at least one call"),
);
export type Trajectory = z.infer<typeof trajectorySchema>;

export const evalTaskManifestSchema = z.strictObject({
  kind: evalTaskKindSchema,
  /** What the swarm is asked to do; the hidden tests judge whether it did. */
  goal: z.string().min(1, "expected the task's goal"),
  /** The repository's files (copied into a fresh git repository for each run). */
  repo: taskFolderSchema.default("repo"),
  /** The repository's own tests: agents run them and every merge is verified with them. */
  testCommand: z.string().min(1).optional(),
  /** Acceptance tests the agents never see, copied into a checkout of the integration branch only to judge. */
  hidden: z
    .strictObject({
      /** Folder of the task holding them; it is copied under the same name into the judged checkout. */
      dir: taskFolderSchema.default("hidden"),
      /** Default `node --test <dir>/`; solved means it exits 0. */
      command: z.string().min(1).optional(),
    })
    .default({ dir: "hidden" }),
  /** The whole run's budgets, the same for every arm (an arm of N agents gives each agent 1/N of the tokens). */
  budgets: z
    .strictObject({
      tokens: z.number().int().positive("expected a positive number of tokens").default(16_384),
      steps: z.number().int().positive("expected a positive number of steps").default(96),
      wallClockMs: z
        .number()
        .int()
        .positive("expected a positive number of milliseconds")
        .default(10 * 60_000),
    })
    .default({ tokens: 16_384, steps: 96, wallClockMs: 10 * 60_000 }),
  /** Forced trajectories by agent count ("1", "4", ...): each solves the task with that many agents. */
  trajectories: z.record(z.string().regex(/^[1-9]\d*$/, "expected an agent count such as 4"), trajectorySchema),
});
export type EvalTaskManifest = z.infer<typeof evalTaskManifestSchema>;

/** One task run with one agent count. */
export const evalRunSchema = z.object({
  task: z.string(),
  kind: evalTaskKindSchema,
  agents: z.number().int().positive(),
  /** The hidden tests passed on the integration branch. */
  solved: z.boolean(),
  /** Why it is not solved (the hidden tests' first failure, or why the swarm or the judge could not run). */
  note: z.string().optional(),
  /** How the swarm ended ("completed", "budget", "stopped", "failed"). */
  outcome: z.string(),
  wallMs: z.number().nonnegative(),
  /** Tokens the agents generated (forced ones included). */
  tokens: z.number().int().nonnegative(),
  /** The most KV cells in use at once (trunk included). */
  kvCells: z.number().int().nonnegative(),
  merges: z.number().int().nonnegative(),
  conflicts: z.number().int().nonnegative(),
  /** Merges refused because they broke a passing test. */
  refusedMerges: z.number().int().nonnegative(),
  /** Claims refused because another agent held an overlapping one. */
  duplicateClaims: z.number().int().nonnegative(),
});
export type EvalRun = z.infer<typeof evalRunSchema>;

/** One agent count's totals over the tasks. */
export const evalArmTotalsSchema = evalRunSchema
  .omit({ task: true, kind: true, solved: true, note: true, outcome: true })
  .extend({ tasks: z.number().int().nonnegative(), solved: z.number().int().nonnegative() });
export type EvalArmTotals = z.infer<typeof evalArmTotalsSchema>;

export const evalReportSchema = z.object({
  suite: z.string(),
  model: z.string(),
  /** true: the forced trajectories; false: the model ran free (--free). */
  forced: z.boolean(),
  arms: z.array(z.number().int().positive()),
  runs: z.array(evalRunSchema),
  totals: z.array(evalArmTotalsSchema),
});
export type EvalReport = z.infer<typeof evalReportSchema>;
