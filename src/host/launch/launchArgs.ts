// The answers a launch needs. The command palette collects them step by step; tests and other commands
// pass them whole as the command's argument (`executeCommand("swarmboard.launchSwarm", { goal, recipe, ... })`),
// which skips the prompts. The argument is parsed here, so a wrong one fails with what to fix.
import { z } from "zod";
import { standingParamsSchema } from "../../protocol/triggers";
import { turnScriptSchema } from "../../protocol/turnScript";
import { formatZodIssues } from "../../protocol/zodIssues";

export const launchArgsSchema = z.object({
  goal: z.string().trim().min(1, "expected a goal (what the swarm should do)").max(20_000),
  recipe: z.string().min(1, "expected a recipe name (a built-in or one of .swarmboard/recipes/*.json)"),
  agents: z.number().int().min(1).max(64).optional(),
  /** Absolute path of a GGUF model; defaults to the `swarmboard.modelPath` setting. */
  modelPath: z.string().min(1).optional(),
  /** A scripted run (tests and demos). */
  script: turnScriptSchema.optional(),
  threads: z.number().int().min(1).max(256).optional(),
  kvCells: z.number().int().min(256).optional(),
  budgetMs: z.number().int().positive().optional(),
  /** The repository to work in; defaults to the first workspace folder. */
  workspace: z.string().min(1).optional(),
  /** A standing swarm (Start Watching): it takes triggers (the editor's errors among them) until stopped. */
  standing: standingParamsSchema.optional(),
});
export type LaunchArgs = z.infer<typeof launchArgsSchema>;

export type LaunchResult =
  | { readonly outcome: "launched"; readonly swarmId: string }
  | { readonly outcome: "refused" | "cancelled" | "failed"; readonly reason: string };

/** Parses a command argument; the error says which field is wrong and what was expected. */
export function parseLaunchArgs(raw: unknown): { ok: true; args: LaunchArgs } | { ok: false; reason: string } {
  const parsed = launchArgsSchema.safeParse(raw);
  if (parsed.success) return { ok: true, args: parsed.data };
  const issues = formatZodIssues(parsed.error, "(argument)");
  return { ok: false, reason: `The launch arguments are not valid (${issues}).` };
}
