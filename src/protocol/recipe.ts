// A swarm is data: roles, topology, visibility, a synthesist for fan-in and budgets.
// Users write their own as `.swarmboard/recipes/*.json`; messages here say what was expected, because
// they are shown to the user next to the file and field that broke them.
import { z } from "zod";
import { visibilitySchema } from "./board";
import { reviewPolicySchema } from "./reviewTools";

const nameSchema = z
  .string({ error: "expected a name (text)" })
  .regex(/^[a-z][a-z0-9-]*$/, "expected a lower-case name of letters, digits and dashes, starting with a letter");

export const roleSchema = z.strictObject({
  name: nameSchema,
  count: z
    .number({ error: "expected a whole number of agents" })
    .int("expected a whole number of agents")
    .min(1, "expected at least 1 agent")
    .max(64, "expected at most 64 agents"),
  /** Tool names from the tool catalogue (src/protocol/tools.ts). */
  tools: z.array(z.string().min(1, "expected a tool name"), { error: "expected a list of tool names" }),
  instructions: z.string({ error: "expected instructions (text)" }).min(1, "expected instructions for this role"),
});
export type Role = z.infer<typeof roleSchema>;

export const stageSchema = z.strictObject({
  name: nameSchema,
  roles: z
    .array(nameSchema, { error: "expected a list of role names" })
    .min(1, "expected at least one role in the stage"),
  after: z.array(nameSchema, { error: "expected a list of stage names" }).default([]),
});
export type Stage = z.infer<typeof stageSchema>;

export const topologySchema = z.discriminatedUnion(
  "kind",
  [
    /** Every role starts at once on the same goal. */
    z.strictObject({ kind: z.literal("fanout") }),
    /** Roles run one after the other, each on what the previous one left on the board. */
    z.strictObject({
      kind: z.literal("chain"),
      order: z.array(nameSchema).min(1, "expected at least one role in the chain"),
    }),
    /** Stages start when every stage they come `after` is done. */
    z.strictObject({ kind: z.literal("dag"), stages: z.array(stageSchema).min(1, "expected at least one stage") }),
  ],
  { error: 'expected a topology with kind "fanout", "chain" or "dag"' },
);
export type Topology = z.infer<typeof topologySchema>;

/** MiB of one checkout above which writers' worktrees are sparse (a recipe budget, a setting, a CLI flag). */
export const sparseThresholdSchema = z
  .number({ error: "expected a number of MiB" })
  .nonnegative("expected 0 (always sparse) or a positive number of MiB");

export const budgetsSchema = z.strictObject({
  /** Wall clock for the whole swarm; when it runs out the synthesist fans in with what exists. */
  wallClockMs: z
    .number({ error: "expected milliseconds" })
    .int()
    .positive("expected a positive number of milliseconds"),
  tokensPerAgent: z
    .number({ error: "expected a number of tokens" })
    .int()
    .positive("expected a positive number of tokens"),
  /** A cap on the KV pool; without it the pool is sized from free memory (src/core/kvPoolSize.ts). */
  kvCells: z
    .number({ error: "expected a number of KV cells" })
    .int()
    .positive("expected a positive number of KV cells")
    .optional(),
  /**
   * Most tokens an agent may write before each call (its thinking: Qwen3's <think>, text before the call for
   * other families), also bounded by half the room left in its share. Absent or 0: agents are forced straight into
   * their calls (the default: on small models free text spends the share before any work is done).
   */
  thinkingTokens: z
    .number({ error: "expected a number of tokens" })
    .int()
    .nonnegative("expected 0 (no thinking) or a positive number of tokens")
    .optional(),
  /** Loop steps per agent. */
  steps: z.number({ error: "expected a number of steps" }).int().positive("expected a positive number of steps"),
  /** Sub-agents alive at once beyond the widest stage's agents (each is a sequence of the context); default 2. */
  subagents: z
    .number({ error: "expected a number of sub-agents" })
    .int()
    .nonnegative("expected zero or more sub-agents")
    .optional(),
  /**
   * Most trunk tokens for memories of earlier swarms on the repository (src/core/memorySelection.ts); every agent
   * reads them. Absent: a quarter of tokensPerAgent; 0: no memory in the trunk.
   */
  memoryTokens: z
    .number({ error: "expected a number of tokens" })
    .int()
    .nonnegative("expected 0 (no memory) or a positive number of tokens")
    .optional(),
  /**
   * Writers' worktrees are sparse checkouts (the root's files plus what they claim, read and write) when one checkout
   * of the repository takes more than this many MiB. Absent: 128 (src/core/sparsePolicy.ts says why); 0: always.
   */
  sparseCheckoutAboveMiB: sparseThresholdSchema.optional(),
});
export type Budgets = z.infer<typeof budgetsSchema>;

export const taskSourceKindSchema = z.enum(["goal", "test-failures", "todo-comments", "diagnostics"]);
export type TaskSourceKind = z.infer<typeof taskSourceKindSchema>;

export const recipeSchema = z.strictObject({
  name: nameSchema,
  description: z.string({ error: "expected a description (text)" }),
  roles: z.array(roleSchema, { error: "expected a list of roles" }).min(1, "expected at least one role"),
  topology: topologySchema,
  visibility: visibilitySchema.default("shared"),
  /** The role whose agent fans in (reads every pad, writes the report); required for private pads. */
  synthesist: nameSchema.optional(),
  budgets: budgetsSchema,
  /** Where work comes from besides the goal. */
  taskSources: z.array(taskSourceKindSchema).default(["goal"]),
  /** The test command for the test-failures source (run by the workspace command runner). */
  testCommand: z.string().min(1).optional(),
  /**
   * Installed dependency folders of the user's checkout that agents' worktrees see read-only, besides the ones
   * looked for always (node_modules, .venv, venv): e.g. "vendor/bundle" or "packages/app/node_modules".
   */
  dependencyFolders: z.array(z.string().min(1)).optional(),
  /**
   * "on" (the default): merges are verified with testCommand, or the repository's detected test command when the
   * recipe names none, and a merge whose tests could not run is refused. "off": nothing is detected, and a merge
   * whose tests could not run is published marked unverified.
   */
  verify: z.enum(["on", "off"], { error: 'expected "on" or "off"' }).optional(),
  /**
   * Review between agents: a branch merges only with this many approvals from peers at its current commit, and
   * only by an agent whose role has integrate_branch (the integrator); merge_progress is then refused.
   */
  review: reviewPolicySchema.optional(),
  /** Whether verified work merges into the swarm's integration branch. */
  merge: z.boolean().default(false),
  /**
   * Agents may write CI and automation files (.github/workflows/, .gitlab-ci.yml, Jenkinsfile, .husky/, ...) without
   * asking the person first; the review still marks a branch that changes them.
   */
  allowAutomationFiles: z.boolean().optional(),
  /** Hosts whose pages fetch_url reads without asking, besides the swarmboard.webAllowedHosts setting. */
  webHosts: z
    .array(z.string().min(1, "expected a host pattern"), { error: "expected a list of host patterns" })
    .optional(),
});
export type Recipe = z.infer<typeof recipeSchema>;
export type RecipeInput = z.input<typeof recipeSchema>;
