// What a running swarm tells the world: one event stream that the CLI's terminal view, the events
// file (the run's trace), the host's tree, the panel's lanes and the editor's findings all project.
// The worker batches events (see src/core/eventThrottle.ts) and sends them as `swarm/events`.
import { z } from "zod";
import { loopStates } from "./agentLoop";
import { agentRuleListingSchema } from "./agentRules";
import { boardEntrySchema } from "./board";
import { engineStateEventSchema, modelFactsSchema, runtimeModeSchema, swarmStatsSchema } from "./runtime";
import { questionOutcomeSchema } from "./steering";
import { fastPathRouteSchema, routerDecisionSchema, triggerCountsSchema, triggerSchema } from "./triggers";

/** The states of an agent's cooperation loop (src/protocol/agentLoop.ts) plus `starting` (forked, reading its brief). */
export const agentStateSchema = z.enum(["starting", ...loopStates]);
export type AgentState = z.infer<typeof agentStateSchema>;

export const agentInfoSchema = z.object({
  id: z.string(),
  role: z.string(),
  /** Git branch the agent works on; absent for research roles that do not write code. */
  branch: z.string().optional(),
  /** The agent it was forked from, when it is a sub-agent. */
  parent: z.string().optional(),
});
export type AgentInfo = z.infer<typeof agentInfoSchema>;

const base = { swarmId: z.string(), time: z.number().int().nonnegative() };

export const swarmEventSchema = z.discriminatedUnion("type", [
  z.object({
    ...base,
    type: z.literal("swarm-started"),
    goal: z.string(),
    recipe: z.string(),
    mode: runtimeModeSchema,
    model: modelFactsSchema,
    integrationBranch: z.string().optional(),
    trunkTokens: z.number().int().nonnegative(),
    /** Tokens of the trunk kept decoded from the last swarm of this worker (only the rest was decoded). */
    trunkReusedTokens: z.number().int().nonnegative().optional(),
    /** The repository's agent-rules files that went into the trunk (absent from older traces). */
    rules: z.array(agentRuleListingSchema).optional(),
    /** How merges are verified: the test command and what a run that cannot happen does (absent from older traces). */
    verification: z.string().optional(),
    /** How agent commands run: in the sandbox, or why not (then each asks for approval). Absent from older traces. */
    commands: z.string().optional(),
    /** The disk the swarm's worktrees will take at most: the shared read view plus one checkout per writer. */
    disk: z
      .object({
        checkoutBytes: z.number().int().nonnegative(),
        writers: z.number().int().nonnegative(),
        estimateBytes: z.number().int().nonnegative(),
        text: z.string(),
      })
      .optional(),
  }),
  z.object({ ...base, type: z.literal("agent-added"), agent: agentInfoSchema }),
  z.object({
    ...base,
    type: z.literal("agent-state"),
    agentId: z.string(),
    state: agentStateSchema,
    /** The task or scope it holds a claim on. */
    claim: z.string().optional(),
    reason: z.string().optional(),
  }),
  /**
   * Text the agent produced since the last event (a delta): its free text before a call as it is written (batched
   * by the event throttle), then the call's name and arguments when the call is complete.
   */
  z.object({ ...base, type: z.literal("agent-text"), agentId: z.string(), text: z.string(), tokens: z.number().int() }),
  /**
   * A call while it is written (a few times a second, not per token): the tool, a one-line preview of its arguments
   * so far (src/core/callPreview.ts), and the call's tokens so far. The complete call follows as agent-text and
   * tool-call; the view counts these tokens until then.
   */
  z.object({
    ...base,
    type: z.literal("call-progress"),
    agentId: z.string(),
    tool: z.string(),
    preview: z.string().max(400),
    tokens: z.number().int().nonnegative(),
  }),
  z.object({
    ...base,
    type: z.literal("tool-call"),
    agentId: z.string(),
    callId: z.string(),
    tool: z.string(),
    args: z.unknown(),
    /** The agent's free text before the call (its thinking), whole; absent when it wrote none. */
    thought: z.string().optional(),
  }),
  z.object({
    ...base,
    type: z.literal("tool-result"),
    agentId: z.string(),
    callId: z.string(),
    ok: z.boolean(),
    /** One line for the lane; the full result stays in the worker. */
    summary: z.string(),
    /** What the agent has left (time, tokens, steps), as its result carried it. */
    left: z.string().optional(),
  }),
  z.object({ ...base, type: z.literal("board-entry"), entry: boardEntrySchema }),
  /** A message reached an agent's context, at one of its two delivery points. */
  z.object({
    ...base,
    type: z.literal("message-delivered"),
    agentId: z.string(),
    messageId: z.string(),
    point: z.enum(["iteration-start", "tool-call-returned"]),
  }),
  z.object({ ...base, type: z.literal("kv-stats"), stats: swarmStatsSchema }),
  /** A remote engine went away (its agents wait) or came back. */
  z.object({ ...base, type: z.literal("engine-state"), engine: engineStateEventSchema }),
  /**
   * An agent's private tail reached its share: its state was written as a compact brief, its cells released and it
   * was forked again from the trunk with that brief (same id, claim, worktree, branch, messages and lane).
   */
  z.object({
    ...base,
    type: z.literal("agent-compacted"),
    agentId: z.string(),
    /** 1 for the agent's first compaction, 2 for the next, ... */
    compaction: z.number().int().positive(),
    /** Cells only the agent held, freed by the compaction. */
    releasedCells: z.number().int().nonnegative(),
    /** The most private cells the agent may hold (its share of the pool). */
    shareCells: z.number().int().positive(),
    /** The brief it was forked again with: all it knows of its work from here on. */
    brief: z.string(),
    briefTokens: z.number().int().nonnegative(),
    /** The agent's steps and generated tokens so far, over all its compactions. */
    steps: z.number().int().nonnegative(),
    tokens: z.number().int().nonnegative(),
    /** The re-forked sequence, llama.cpp's own positions beside the ledger's cell count, read after the fork. */
    positions: z.object({
      ledgerCells: z.number().int().nonnegative(),
      llamaMinPosition: z.number().int(),
      llamaMaxPosition: z.number().int(),
    }),
  }),
  z.object({
    ...base,
    type: z.literal("approval-request"),
    requestId: z.string(),
    agentId: z.string(),
    command: z.string(),
    cwd: z.string(),
    /** Why the policy asks rather than allows. */
    reason: z.string(),
  }),
  /**
   * An approval request ended: answered (by whichever window or client answered first), unanswered in time, or
   * withdrawn (the agent stopped). Every view showing the request drops it.
   */
  z.object({
    ...base,
    type: z.literal("approval-ended"),
    requestId: z.string(),
    agentId: z.string(),
    outcome: z.enum(["once", "swarm", "deny", "timed-out", "withdrawn"]),
  }),
  /** An agent asked the person a question (`ask_user`); it waits for the answer at most `timeoutMs`. */
  z.object({
    ...base,
    type: z.literal("user-question"),
    questionId: z.string(),
    agentId: z.string(),
    question: z.string(),
    timeoutMs: z.number().int().nonnegative(),
  }),
  /** The question ended: answered (the answer reached the agent), timed out, or withdrawn (the agent stopped). */
  z.object({
    ...base,
    type: z.literal("user-question-ended"),
    questionId: z.string(),
    agentId: z.string(),
    outcome: questionOutcomeSchema,
    answer: z.string().optional(),
  }),
  /** A standing swarm took a trigger: what the fast path did with it, and the counters so far. */
  z.object({
    ...base,
    type: z.literal("trigger"),
    trigger: triggerSchema,
    route: fastPathRouteSchema,
    counts: triggerCountsSchema,
  }),
  /** The router decided a trigger (`agentId`: the worker that took an assigned one, once it started). */
  z.object({
    ...base,
    type: z.literal("trigger-decision"),
    triggerId: z.string(),
    by: z.string(),
    decision: routerDecisionSchema,
    agentId: z.string().optional(),
  }),
  z.object({
    ...base,
    type: z.literal("swarm-ended"),
    /** "completed" | "budget" (wall clock or tokens ran out) | "stopped" (by the user) | "failed". */
    outcome: z.enum(["completed", "budget", "stopped", "failed"]),
    reason: z.string(),
    reportPath: z.string().optional(),
  }),
]);
export type SwarmEvent = z.infer<typeof swarmEventSchema>;
export type SwarmEventType = SwarmEvent["type"];
