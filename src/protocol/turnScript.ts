// A scripted run: the calls each agent makes, in order. The worker renders each call in the model's own
// syntax and forces its tokens through the real decode path, so a run is deterministic while the runtime,
// the KV accounting, the tools, the board and git all do their real work. Used by tests and demos.
import { z } from "zod";

export const scriptedCallSchema = z.object({
  tool: z.string().min(1),
  /** The call's arguments; they are validated by the tool's schema like any model's call. */
  args: z.unknown(),
  /** Raw argument text to force instead of `args` (to script a malformed call). */
  rawArgs: z.string().optional(),
  /**
   * Free text the agent writes before the call (its thinking), forced through the family's own place for it
   * (Qwen3's <think>, text before the call for others). It counts against the agent's budget like a model's.
   */
  think: z.string().min(1, "expected thinking text (leave think out for a call without it)").optional(),
});
export type ScriptedCall = z.infer<typeof scriptedCallSchema>;

export const turnScriptSchema = z.object({
  /** Calls by agent id (`agent-1`, `agent-2`, ...; the synthesist is `synthesist`). */
  agents: z.record(z.string(), z.array(scriptedCallSchema)),
});
export type TurnScript = z.infer<typeof turnScriptSchema>;
