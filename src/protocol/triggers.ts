// Triggers: what a standing swarm (`swarmboard watch`) takes in while it runs. Each is a typed record with a
// source, a fingerprint and a time, written to the swarm's trigger log (`triggers.jsonl`, fsynced) before it is
// acted on, so a restart loses none. The fast path (src/core/triggerFastPath.ts) drops noise and sends follow-ups
// straight to the agent that owns their thread; the rest go to the router, whose decisions are logged too.
import { z } from "zod";
import { relativePathSchema } from "./board";
import { defineMethod } from "./envelope";

export const triggerSources = ["diagnostic", "test-failure", "todo-commit", "user-commit", "message"] as const;
export const triggerSourceSchema = z.enum(triggerSources);
export type TriggerSource = z.infer<typeof triggerSourceSchema>;

export const triggerSeveritySchema = z.enum(["error", "warning", "info"]);
export type TriggerSeverity = z.infer<typeof triggerSeveritySchema>;

export const maxTriggerChars = 8_000;

/** A trigger as a source or a person hands it in; the inbox fills in what is missing (id, fingerprint, time). */
export const triggerInputSchema = z.strictObject({
  /** Stable id from the source (a replayed stream keeps its ids, so a trigger seen before is not taken twice). */
  id: z.string().trim().min(1).max(200).optional(),
  source: triggerSourceSchema,
  /** What makes two triggers the same event; default: source, path, test and text. */
  fingerprint: z.string().min(1).max(1_000).optional(),
  /** Milliseconds since the epoch when the event happened; default: when the inbox took it. */
  time: z.number().int().nonnegative().optional(),
  path: relativePathSchema.optional(),
  line: z.number().int().positive().optional(),
  /** The failing test's name (test-failure). */
  test: z.string().min(1).max(1_000).optional(),
  text: z
    .string()
    .trim()
    .min(1, "expected the trigger's text")
    .max(maxTriggerChars, `a trigger's text is at most ${maxTriggerChars.toLocaleString("en-US")} characters`),
  severity: triggerSeveritySchema.optional(),
});
export type TriggerInput = z.input<typeof triggerInputSchema>;

export const triggerSchema = triggerInputSchema.extend({
  id: z.string().min(1),
  fingerprint: z.string().min(1),
  time: z.number().int().nonnegative(),
});
export type Trigger = z.infer<typeof triggerSchema>;

/** What the fast path did with a trigger, with no model call. */
export const fastPathRouteSchema = z.discriminatedUnion("route", [
  /** Noise: a rule dropped it (`rule` names the rule, `reason` says it with its number). */
  z.object({ route: z.literal("dropped"), rule: z.string(), reason: z.string() }),
  /** A follow-up on a thread an agent owns: sent to that agent as a message. */
  z.object({ route: z.literal("direct"), agentId: z.string(), thread: z.string() }),
  /** A follow-up on a thread still waiting for the router: it goes to the thread's owner once there is one. */
  z.object({ route: z.literal("parked"), thread: z.string() }),
  /** New work: the router decides. */
  z.object({ route: z.literal("router") }),
]);
export type FastPathRoute = z.infer<typeof fastPathRouteSchema>;

/** A trigger a standing swarm took, and what its fast path did with it. */
export interface TakenTrigger {
  readonly trigger: Trigger;
  readonly route: FastPathRoute;
  /** A trigger with this id had been taken before: nothing new happened. */
  readonly duplicate: boolean;
}

/** The role of a standing recipe that dispatches triggers (a recipe with one runs only standing). */
export const routerRoleName = "router";

export const maxRouterTextChars = 4_000;
const routerText = z.string().trim().min(1).max(maxRouterTextChars);

/** What the router decided for one trigger (its only tools make these). */
export const routerDecisionSchema = z.discriminatedUnion("action", [
  /** A new worker, forked from the trunk, owns the trigger's thread until it merges or gives up. */
  z.object({ action: z.literal("assign"), task: routerText }),
  z.object({ action: z.literal("forward"), agentId: z.string().min(1), note: routerText }),
  z.object({ action: z.literal("reply"), text: routerText }),
  z.object({ action: z.literal("hold"), reason: routerText }),
  z.object({ action: z.literal("drop"), reason: routerText }),
]);
export type RouterDecision = z.infer<typeof routerDecisionSchema>;

/** The counters of the fast path: dropped by rules, routed directly (parked included), sent to the router. */
export const triggerCountsSchema = z.object({
  dropped: z.number().int().nonnegative(),
  direct: z.number().int().nonnegative(),
  router: z.number().int().nonnegative(),
});
export type TriggerCounts = z.infer<typeof triggerCountsSchema>;

/** One line of the trigger log. */
export const triggerLogLineSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("trigger"), trigger: triggerSchema, route: fastPathRouteSchema }),
  z.object({
    kind: z.literal("decision"),
    triggerId: z.string(),
    by: z.string(),
    time: z.number().int().nonnegative(),
    decision: routerDecisionSchema,
  }),
  /** A thread's worker started or ended (a worker owns one task: the thread of the trigger it was assigned). */
  z.object({
    kind: z.literal("worker"),
    thread: z.string(),
    agentId: z.string(),
    time: z.number().int().nonnegative(),
    state: z.enum(["started", "ended"]),
    reason: z.string().optional(),
  }),
  /** A parked follow-up reached its thread's owner. */
  z.object({
    kind: z.literal("delivered"),
    triggerId: z.string(),
    agentId: z.string(),
    time: z.number().int().nonnegative(),
  }),
]);
export type TriggerLogLine = z.infer<typeof triggerLogLineSchema>;

const globList = z.array(z.string().min(1)).max(200);

/** The rules of one source. */
export const sourceRulesSchema = z.strictObject({
  /** Only triggers on paths matching one of these (absent: any path, and triggers without a path). */
  allow: globList.optional(),
  /** Triggers on paths matching one of these are noise. */
  deny: globList.optional(),
  /** Triggers below this severity are noise (absent severity counts as error). */
  minSeverity: triggerSeveritySchema.optional(),
  /** Most new-work triggers of this source per minute (by the triggers' own times); past it they are dropped. */
  perMinute: z.number().int().positive().optional(),
  /** Only follow-ups: a trigger of this source that no open thread covers is noise (e.g. the person's commits). */
  threadsOnly: z.boolean().optional(),
});
export type SourceRules = z.infer<typeof sourceRulesSchema>;

export const triggerRulesSchema = z.strictObject({
  /** A trigger whose fingerprint was seen this recently (by trigger time) is a duplicate. */
  duplicateWindowMs: z
    .number()
    .int()
    .nonnegative()
    .default(10 * 60_000),
  sources: z.partialRecord(triggerSourceSchema, sourceRulesSchema).default({}),
  /** After a save, the recipe's test command runs on the checkout this long after the last save of a burst. */
  saveDebounceMs: z.number().int().nonnegative().default(2_000),
  /** A trigger the router holds is shown again with the next batch, or alone after this long. */
  holdMs: z
    .number()
    .int()
    .positive()
    .default(5 * 60_000),
});
export type TriggerRules = z.infer<typeof triggerRulesSchema>;

/** What makes a launched swarm a standing one (the host's Start Watching; the CLI's watch flags say the same). */
export const standingParamsSchema = z.strictObject({
  /** Poll the person's branch for commits every this many milliseconds. */
  pollMs: z.number().int().positive().optional(),
  rules: triggerRulesSchema.optional(),
});
export type StandingParams = z.infer<typeof standingParamsSchema>;

/** A trigger handed to a standing swarm by the host (diagnostics, a person's message) or any other client. */
export const swarmTriggerMethod = defineMethod(
  "swarm/trigger",
  z.object({ swarmId: z.string(), trigger: triggerInputSchema }),
  /** `duplicate` true: a trigger with this id was taken before (nothing new happened). */
  z.object({ triggerId: z.string(), route: fastPathRouteSchema, duplicate: z.boolean() }),
);

/** The person saved a file in the standing swarm's repository: `testRun` false when its recipe has no test command. */
export const swarmSavedMethod = defineMethod(
  "swarm/saved",
  z.object({ swarmId: z.string() }),
  z.object({ testRun: z.boolean() }),
);

const triggerRef = z.string().trim().min(1).describe("the trigger's id, as wait_for_triggers listed it");

/** The router's tools' arguments: it can only wait for triggers and dispatch them. */
export const routerToolArgs = {
  wait_for_triggers: z.object({}),
  assign_task: z.object({
    trigger: triggerRef,
    task: routerText.describe("the task for a new worker: what to do and how to know it is done"),
  }),
  forward_trigger: z.object({
    trigger: triggerRef,
    agent: z.string().trim().min(1).describe("a running agent's id"),
    note: routerText.describe("what the agent should do with it"),
  }),
  reply_to_person: z.object({ trigger: triggerRef, text: routerText.describe("the answer the person reads") }),
  hold_trigger: z.object({ trigger: triggerRef, reason: routerText.describe("why it waits; it is shown again later") }),
  drop_trigger: z.object({ trigger: triggerRef, reason: routerText.describe("why it needs no work") }),
} as const;
export type RouterToolName = keyof typeof routerToolArgs;
export const routerToolNames = Object.keys(routerToolArgs) as RouterToolName[];
