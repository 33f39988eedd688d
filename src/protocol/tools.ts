// The agent tools: one zod schema for each tool's arguments and one for its result.
// The argument schemas are what the runtime turns into a grammar (`toolJsonSchemas` gives the JSON schemas),
// and what the workspace parses every call with, so a call is well-formed twice over.
// Every result that can be large carries `truncated`, so an agent always knows when it saw only part.
import { z } from "zod";

/** A path relative to the agent's worktree root (absolute paths are refused by the workspace). */
const relPath = z.string().min(1).max(4096).describe("path relative to the worktree root");

export const listDirArgs = z.object({
  path: z.string().max(4096).default(".").describe("directory relative to the worktree root"),
  depth: z.number().int().min(1).max(4).default(1).describe("levels to descend"),
});
export const readFileArgs = z.object({
  path: relPath,
  startLine: z.number().int().min(1).optional().describe("first line, 1-based"),
  endLine: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("last line, inclusive; without it a window of lines is read and the result says how many remain"),
});
export const searchArgs = z.object({
  pattern: z.string().min(1).max(1000),
  fixedString: z.boolean().default(false),
  ignoreCase: z.boolean().default(false),
  paths: z.array(relPath).max(32).default([]).describe("limit to these files or directories"),
  maxResults: z.number().int().min(1).max(500).default(100),
});
export const writeFileArgs = z.object({
  path: relPath,
  content: z.string().max(1_000_000),
});
export const editBlock = z.object({
  search: z.string().min(1).describe("exact text that occurs exactly once in the file"),
  replace: z.string(),
});
/** Search/replace blocks applied in order (`edits`), or one block as `search`/`replace`; nothing is written unless all match. */
export const editFileArgs = z
  .object({
    path: relPath,
    edits: z.array(editBlock).optional().describe("search/replace blocks, applied in order; each matches exactly once"),
    search: z.string().min(1).optional().describe("one block's exact text (instead of edits)"),
    replace: z.string().optional(),
  })
  .refine((a) => (a.edits?.length ?? 0) > 0 || a.search !== undefined, {
    message: "give edits: [{search, replace}, ...] (or one search and replace)",
  })
  .refine((a) => a.search === undefined || a.replace !== undefined, {
    message: "search needs its replace (use an empty string to delete)",
  });
export const runCommandArgs = z.object({
  command: z.string().min(1).max(8000),
  timeoutMs: z.number().int().min(100).max(600_000).optional(),
});
export const gitStatusArgs = z.object({});
export const gitDiffArgs = z.object({
  staged: z.boolean().default(false),
  paths: z.array(relPath).max(32).default([]),
});
export const commitArgs = z.object({
  message: z.string().min(1).max(5000),
});
export const mergeProgressArgs = z.object({
  abort: z.boolean().default(false).describe("abandon a merge left in conflict instead of merging"),
});

/** Every tool by name: the one table the runtime (grammar) and the workspace (dispatch) share. */
export const toolArgSchemas = {
  list_dir: listDirArgs,
  read_file: readFileArgs,
  search: searchArgs,
  write_file: writeFileArgs,
  edit_file: editFileArgs,
  run_command: runCommandArgs,
  git_status: gitStatusArgs,
  git_diff: gitDiffArgs,
  commit: commitArgs,
  merge_progress: mergeProgressArgs,
} as const;
export type ToolName = keyof typeof toolArgSchemas;
export type ToolArgs<N extends ToolName> = z.infer<(typeof toolArgSchemas)[N]>;
export const toolNames = Object.keys(toolArgSchemas) as ToolName[];

/** Set on every result that can be cut to a cap. */
export const truncated = z.boolean().describe("true when the result was cut to its cap");

export const dirEntrySchema = z.object({
  path: z.string(),
  type: z.enum(["file", "dir", "symlink", "other"]),
  size: z.number().int().nonnegative(),
});
export const listDirResult = z.object({ entries: z.array(dirEntrySchema), truncated });
export const readFileResult = z.object({
  path: z.string(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  totalLines: z.number().int(),
  /** Lines after endLine: how much is left to read. */
  remainingLines: z.number().int(),
  content: z.string(),
  truncated,
});
export const searchMatchSchema = z.object({ path: z.string(), line: z.number().int(), text: z.string() });
export const searchResult = z.object({ matches: z.array(searchMatchSchema), truncated });
export const writeFileResult = z.object({ path: z.string(), bytes: z.number().int(), created: z.boolean() });
export const editFileResult = z.object({
  path: z.string(),
  line: z.number().int().describe("line where the first block's replacement starts"),
  lines: z.array(z.number().int()).describe("line where each block's replacement starts, in order"),
});
export const runCommandResult = z.object({
  decision: z.enum(["allow", "ask", "deny"]),
  ran: z.boolean(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  timedOut: z.boolean(),
  sandboxed: z.boolean(),
  output: z.string(),
  reason: z.string().describe("why it ran or did not"),
  truncated,
});
export const fileStatusSchema = z.object({ path: z.string(), index: z.string(), worktree: z.string() });
export const gitStatusResult = z.object({ files: z.array(fileStatusSchema), merging: z.boolean(), truncated });
export const gitDiffResult = z.object({ diff: z.string(), truncated });
export const commitResult = z.object({
  committed: z.boolean(),
  sha: z.string().nullable(),
  files: z.array(z.string()),
  reason: z.string(),
});
export const conflictHunkSchema = z.object({
  startLine: z.number().int(),
  ours: z.string(),
  theirs: z.string(),
});
export const conflictFileSchema = z.object({ path: z.string(), hunks: z.array(conflictHunkSchema) });
/** What the recipe's tests said about a merge (verify before merge), or why it is unverified. */
export const mergeVerificationSchema = z.object({
  /** could-not-run: the test command ran but is no verdict (exit 126/127, no runner, no test reported). */
  status: z.enum(["passed", "broke-tests", "could-not-run", "unverified"]),
  command: z.string().optional(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  broken: z.array(z.string()).describe("tests that passed on the integration branch and fail with this change"),
  stillFailing: z.array(z.string()).describe("tests that failed on the integration branch too"),
  note: z.string(),
});
export const mergeProgressResult = z.discriminatedUnion("status", [
  z.object({
    status: z.literal("merged"),
    integrationSha: z.string(),
    message: z.string(),
    verification: mergeVerificationSchema.optional(),
  }),
  z.object({ status: z.literal("up-to-date"), integrationSha: z.string(), message: z.string() }),
  z.object({ status: z.literal("conflict"), files: z.array(conflictFileSchema), message: z.string() }),
  z.object({ status: z.literal("aborted"), message: z.string() }),
  z.object({ status: z.literal("refused"), message: z.string(), verification: mergeVerificationSchema.optional() }),
]);

export const toolResultSchemas = {
  list_dir: listDirResult,
  read_file: readFileResult,
  search: searchResult,
  write_file: writeFileResult,
  edit_file: editFileResult,
  run_command: runCommandResult,
  git_status: gitStatusResult,
  git_diff: gitDiffResult,
  commit: commitResult,
  merge_progress: mergeProgressResult,
} as const;
export type ToolResult<N extends ToolName> = z.infer<(typeof toolResultSchemas)[N]>;
export type MergeProgressResult = z.infer<typeof mergeProgressResult>;
export type MergeVerification = z.infer<typeof mergeVerificationSchema>;
export type ConflictFile = z.infer<typeof conflictFileSchema>;

/** A tool that failed: a clear message for the agent, never a throw across the tool boundary. */
export const toolErrorSchema = z.object({
  code: z.enum([
    "invalid-args",
    "outside-worktree",
    "protected-path",
    "not-found",
    "not-unique",
    "too-large",
    "git-failed",
    "io-failed",
    /** A reader (a role without writing tools) tried to change the tree. */
    "read-only",
    /** The file is inside another agent's live claim (src/core/claimedPaths.ts). */
    "claimed",
  ]),
  message: z.string(),
});
export type ToolError = z.infer<typeof toolErrorSchema>;

/** The JSON schema of every tool's arguments, for grammar-constrained calls (input side of each schema). */
export function toolJsonSchemas(): Record<ToolName, unknown> {
  const out = {} as Record<ToolName, unknown>;
  for (const name of toolNames) out[name] = z.toJSONSchema(toolArgSchemas[name], { io: "input" });
  return out;
}
