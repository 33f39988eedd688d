// The agent loop's states, inputs and the event each transition emits (shown in the lanes).
import { z } from "zod";

/** gather -> claim -> act -> verify -> merge, then again; plus paused, stalled and the two ends. */
export const loopStates = ["gather", "claim", "act", "verify", "merge", "paused", "stalled", "done", "failed"] as const;
export const loopStateSchema = z.enum(loopStates);
export type LoopState = z.infer<typeof loopStateSchema>;

/** What can happen to an agent; the transition table (src/core/agentLoop.ts) says where each one leads. */
export const loopInputs = [
  "gathered", // context read, a sub-task chosen
  "noWork", // nothing left to do
  "claimGranted",
  "claimRefused",
  "acted", // the change is made
  "verified", // tests/checks pass
  "verifyFailed",
  "merged",
  "mergeConflict",
  "pause",
  "resume",
  "stall", // the watchdog saw no progress
  "fail",
  "stop", // the user or the budget ends the agent
] as const;
export const loopInputSchema = z.enum(loopInputs);
export type LoopInput = z.infer<typeof loopInputSchema>;

export const loopEventSchema = z.object({
  agent: z.string().min(1),
  from: loopStateSchema,
  to: loopStateSchema,
  input: loopInputSchema,
  /** How many transitions this agent has made, this one included. */
  seq: z.number().int().positive(),
  /** Caller's clock, ms since the epoch. */
  time: z.number().int().nonnegative(),
  /** Why, when there is more to say (a stall's cause, a failure, a refused claim). */
  reason: z.string().optional(),
  /** Completed gather->merge cycles after this transition. */
  iteration: z.number().int().nonnegative(),
});
export type LoopEvent = z.infer<typeof loopEventSchema>;

/** What the watchdog decides after a step. */
export const watchdogVerdictSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("none") }),
  z.object({ action: z.literal("nudge"), reason: z.string() }),
  z.object({ action: z.literal("releaseClaim"), reason: z.string() }),
  z.object({ action: z.literal("stop"), reason: z.string() }),
]);
export type WatchdogVerdict = z.infer<typeof watchdogVerdictSchema>;
