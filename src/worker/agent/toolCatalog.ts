// Every tool an agent can call, in one table: the workspace tools, the board tools and the tools that end or
// delegate work (src/worker/agent/tools/). A role sees the tools its recipe lists; each tool's zod schema gives the
// JSON schema of its grammar and parses the call when it arrives. Adding a tool is adding its definition to
// one of those lists (and its argument schema to src/protocol when it is new).
import type { Role } from "../../protocol/recipe";
import { askUserTool } from "./tools/askUserTool";
import { boardTools } from "./tools/boardTools";
import { controlTools } from "./tools/controlTools";
import { integrateTool } from "./tools/integrateTool";
import { reviewTools } from "./tools/reviewTools";
import { rosterTool } from "./tools/rosterTool";
import { routerTools } from "./tools/routerTools";
import type { CatalogTool } from "./tools/toolDefinition";
import { webTools } from "./tools/webTools";
import { workspaceTools } from "./tools/workspaceTools";

export type { CatalogTool } from "./tools/toolDefinition";

const catalogue: readonly CatalogTool[] = [
  ...workspaceTools,
  ...boardTools,
  ...reviewTools,
  integrateTool,
  rosterTool,
  ...webTools,
  ...controlTools,
  askUserTool,
  // A standing swarm's router binds its own copies to its desk (src/worker/standing/standingSeats.ts); these
  // refuse to run.
  ...routerTools(undefined),
];
const byName = new Map(catalogue.map((tool) => [tool.name, tool]));

/**
 * The tools of a role, plus `finish` (everyone), `write_report` (the synthesist) and `spawn_subagent` with
 * `collect_subagents` (workers that may still delegate). Unknown names are refused.
 */
export function toolsForRole(role: Role, isSynthesist: boolean, canDelegate = !isSynthesist): CatalogTool[] {
  const delegate = canDelegate ? ["spawn_subagent", "collect_subagents"] : [];
  const extra = ["finish", ...(isSynthesist ? ["write_report"] : []), ...delegate];
  const names = [...new Set([...role.tools, ...extra])].sort();
  return names.map((name) => {
    const tool = byName.get(name);
    if (tool === undefined)
      throw new Error(`Recipe role "${role.name}" lists the tool "${name}", which does not exist.`);
    return tool;
  });
}

/** The union of several roles' tools (what the shared trunk documents), each once, sorted by name. */
export function unionOfTools(lists: readonly (readonly CatalogTool[])[]): CatalogTool[] {
  const union = new Map<string, CatalogTool>();
  for (const list of lists) for (const t of list) union.set(t.name, t);
  return [...union.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Every tool name a recipe role may list. */
export function toolNamesForRecipes(): ReadonlySet<string> {
  return new Set(byName.keys());
}

/** The tool of that name among `tools`, or the error the agent reads (which names its tools). */
export function findTool<Context>(
  tools: readonly CatalogTool<Context>[],
  name: string,
): { readonly tool: CatalogTool<Context> } | { readonly error: string } {
  const tool = tools.find((t) => t.name === name);
  if (tool !== undefined) return { tool };
  const names = tools.map((t) => t.name).join(", ");
  return { error: `invalid-call: there is no tool ${JSON.stringify(name)} among your tools (${names}).` };
}
