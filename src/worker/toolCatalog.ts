// Every tool an agent can call, in one table: the workspace tools (src/protocol/tools.ts), the board tools
// (src/protocol/boardTools.ts) and the two that end work (`finish`, and `write_report` for the synthesist).
// A role sees the tools its recipe lists; each tool's zod schema gives the JSON schema of its grammar and
// validates the call again when it arrives.
import { z } from "zod";
import { boardToolArgSchemas, boardToolDescriptions, type BoardToolName } from "../protocol/boardTools";
import type { Role } from "../protocol/recipe";
import { toolArgSchemas, type ToolName } from "../protocol/tools";

export const finishArgs = z.object({
  summary: z.string().min(1).max(2000).describe("what you did and what is left"),
});
export const spawnSubagentArgs = z.object({
  task: z.string().min(1).max(1000).describe("the sub-task, in one or two sentences"),
});
export const writeReportArgs = z.object({
  title: z.string().min(1).max(200),
  body: z.string().min(1).max(20_000).describe("the report in Markdown: what was found, merged, failed and is left"),
});

export type ToolKind = "workspace" | "board" | "control" | "delegate";

export interface CatalogTool {
  readonly name: string;
  readonly kind: ToolKind;
  readonly description: string;
  readonly schema: z.ZodType;
  /** JSON schema of the arguments (input side), for the grammar and the trunk's tool docs. */
  readonly jsonSchema: object;
}

const workspaceDescriptions: Record<ToolName, string> = {
  list_dir: "List a directory of your worktree.",
  read_file: "Read a file of your worktree (optionally a line range); long files are cut and say so.",
  search: "Search your worktree with git grep (regex or fixed string, optional path filters).",
  write_file: "Create or overwrite a file in your worktree.",
  edit_file:
    "Change a file by search/replace blocks (edits), applied in order; each search must occur exactly once. " +
    "Nothing is written unless every block matches.",
  run_command: "Run a shell command in your worktree under the command policy (sandboxed, with a timeout).",
  git_status: "Show your worktree's changed files.",
  git_diff: "Show your uncommitted changes (or staged ones).",
  commit: "Commit all your changes on your branch.",
  merge_progress: "Merge your verified commits into the swarm's integration branch; a conflict comes back to resolve.",
};

const controlTools: Record<"finish" | "write_report", { description: string; schema: z.ZodType }> = {
  finish: {
    description: "End your work: say what you did and what is left. Your claims are released.",
    schema: finishArgs,
  },
  write_report: {
    description: "Write the swarm's final report (synthesist only), then you are done.",
    schema: writeReportArgs,
  },
};

function entry(name: string, kind: ToolKind, description: string, schema: z.ZodType): CatalogTool {
  const { $schema: _drop, ...jsonSchema } = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  return { name, kind, description, schema, jsonSchema };
}

function lookup(name: string): CatalogTool | undefined {
  if (name in toolArgSchemas)
    return entry(name, "workspace", workspaceDescriptions[name as ToolName], toolArgSchemas[name as ToolName]);
  if (name in boardToolArgSchemas) {
    return entry(
      name,
      "board",
      boardToolDescriptions[name as BoardToolName],
      boardToolArgSchemas[name as BoardToolName],
    );
  }
  if (name === "finish" || name === "write_report")
    return entry(name, "control", controlTools[name].description, controlTools[name].schema);
  if (name === "spawn_subagent") {
    return entry(
      name,
      "delegate",
      "Fork a sub-agent from your current state (it knows all you know) for a sub-task; you wait for its findings.",
      spawnSubagentArgs,
    );
  }
  return undefined;
}

/**
 * The tools of a role, plus `finish` (everyone), `write_report` (the synthesist) and `spawn_subagent` (workers
 * that may still delegate). Unknown names are refused.
 */
export function toolsForRole(role: Role, isSynthesist: boolean, canDelegate = !isSynthesist): CatalogTool[] {
  const extra = ["finish", ...(isSynthesist ? ["write_report"] : []), ...(canDelegate ? ["spawn_subagent"] : [])];
  const names = [...new Set([...role.tools, ...extra])].sort();
  return names.map((name) => {
    const tool = lookup(name);
    if (tool === undefined)
      throw new Error(`Recipe role "${role.name}" lists the tool "${name}", which does not exist.`);
    return tool;
  });
}

/** The union of several roles' tools (what the shared trunk documents), each once, sorted by name. */
export function unionOfTools(lists: readonly (readonly CatalogTool[])[]): CatalogTool[] {
  const byName = new Map<string, CatalogTool>();
  for (const list of lists) for (const t of list) byName.set(t.name, t);
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Every tool name a recipe role may list. */
export function toolNamesForRecipes(): ReadonlySet<string> {
  return new Set([
    ...Object.keys(toolArgSchemas),
    ...Object.keys(boardToolArgSchemas),
    "finish",
    "write_report",
    "spawn_subagent",
  ]);
}
