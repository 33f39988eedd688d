// The four tools through which another agent delegates to Swarmboard: launch a swarm, ask its status, read
// its findings, stop it. One schema each, shared by the VS Code language model tools (src/host/lmTools) and
// the MCP server (src/cli/mcpServer.ts); package.json's `languageModelTools` input schemas are these,
// written out (a unit test keeps them equal).
import { z } from "zod";
import { boardEntryKindSchema } from "./board";

/** A tool's optional swarm id (the talk tools take the same field). */
export const swarmIdField = z
  .string()
  .min(1)
  .optional()
  .describe("The swarm's id (from swarmboard_launch); default: the running swarm, else the newest.");

export const launchToolInput = z
  .object({
    goal: z
      .string()
      .trim()
      .min(1, "expected a goal (what the swarm should do)")
      .max(20_000)
      .describe("What the swarm should do, in words; a broad task the agents split among themselves."),
    recipe: z
      .string()
      .min(1)
      .optional()
      .describe(
        "How the swarm is organised: organization (default), research, fix-failing-tests, todo-sweep, or a recipe of the workspace's .swarmboard/recipes.",
      ),
    agents: z.number().int().min(1).max(64).optional().describe("How many agents to fork (default: the recipe's)."),
  })
  .strict();
export type LaunchToolInput = z.infer<typeof launchToolInput>;

export const statusToolInput = z.object({ swarmId: swarmIdField }).strict();
export type StatusToolInput = z.infer<typeof statusToolInput>;

export const findingsToolInput = z
  .object({
    swarmId: swarmIdField,
    kind: z
      .array(boardEntryKindSchema)
      .optional()
      .describe("Only these kinds (FACT, OBSERVED, FAIL, PATCH_SUMMARY, CLAIM, RELEASE, MESSAGE)."),
    path: z.string().min(1).optional().describe("Only findings about this file, folder or glob."),
    text: z.string().min(1).optional().describe("Only findings whose text contains these words (case-insensitive)."),
    limit: z.number().int().min(1).max(500).optional().describe("The newest this many (default 50)."),
  })
  .strict();
export type FindingsToolInput = z.infer<typeof findingsToolInput>;

export const stopToolInput = z.object({ swarmId: swarmIdField }).strict();
export type StopToolInput = z.infer<typeof stopToolInput>;

export const delegationTools = {
  swarmboard_launch: {
    input: launchToolInput,
    description:
      "Launch a local Swarmboard swarm on the open git repository: several agents on one local model claim parts of the goal, work on their own branches, post typed findings and merge. Returns the swarm id at once; poll swarmboard_status and read swarmboard_findings.",
  },
  swarmboard_status: {
    input: statusToolInput,
    description:
      "Status of a Swarmboard swarm: running or how it ended, its agents (state, claim, branch), how many findings of each kind, the KV budget, and the report's path when it ended.",
  },
  swarmboard_findings: {
    input: findingsToolInput,
    description:
      "Read a Swarmboard swarm's board: typed findings (FACT, OBSERVED, FAIL, PATCH_SUMMARY) with file:line references, filtered by kind, path or text.",
  },
  swarmboard_stop: {
    input: stopToolInput,
    description:
      "Stop a running Swarmboard swarm: agents stop at their next step, the synthesist fans in and its branches stay for review.",
  },
} as const;
export type DelegationToolName = keyof typeof delegationTools;

/** Says which argument is wrong and what was expected, for a tool error the calling agent can act on. */
export function describeInputProblems(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "(arguments)"}: ${i.message}`).join("; ");
}
