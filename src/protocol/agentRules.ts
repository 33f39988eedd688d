// The repository's agent-rules files (AGENTS.md and the like) as they travel: read by the workspace layer,
// rendered into the trunk by src/core/trunkPrompt.ts, and listed in the swarm-started event for the views.
import { z } from "zod";

/** One rules file that went into the trunk. */
export const agentRuleSchema = z.object({
  /** The rule's name (the first candidate of its group, e.g. "AGENTS.md"). */
  name: z.string().min(1),
  /** Repository-relative path the text came from (the first candidate found). */
  path: z.string().min(1),
  /** The text as it goes into the trunk (cut to the cap when the file is longer). */
  text: z.string(),
  /** Characters in the whole file. */
  chars: z.number().int().nonnegative(),
  /** True when the text was cut to the cap. */
  cut: z.boolean(),
});
export type AgentRule = z.infer<typeof agentRuleSchema>;

/** What a view shows of a rule: where it came from and how much of it went in, not the text. */
export const agentRuleListingSchema = agentRuleSchema.omit({ text: true });
export type AgentRuleListing = z.infer<typeof agentRuleListingSchema>;
