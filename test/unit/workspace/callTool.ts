// The workspace tests call a tool the way an agent does: by name, through the worker's tool definitions
// (parse -> run), so they exercise the one definition per tool. The result is checked against its result schema.
import type { ToolError, ToolName, ToolResult } from "../../../src/protocol/tools";
import { toolResultSchemas } from "../../../src/protocol/tools";
import { findTool } from "../../../src/worker/agent/toolCatalog";
import { workspaceTools } from "../../../src/worker/agent/tools/workspaceTools";
import type { AgentWorkspace } from "../../../src/workspace/agentWorkspace";

export type ToolCallOutcome<N extends ToolName = ToolName> =
  { readonly ok: true; readonly result: ToolResult<N> } | { readonly ok: false; readonly error: ToolError };

function isToolName(name: string): name is ToolName {
  return name in toolResultSchemas;
}

export function callTool<N extends ToolName>(
  ws: AgentWorkspace,
  name: N,
  rawArgs: unknown,
): Promise<ToolCallOutcome<N>>;
export function callTool(ws: AgentWorkspace, name: string, rawArgs: unknown): Promise<ToolCallOutcome>;
export async function callTool(ws: AgentWorkspace, name: string, rawArgs: unknown): Promise<ToolCallOutcome> {
  const found = findTool(workspaceTools, name);
  if ("error" in found || !isToolName(name)) {
    const message = "error" in found ? found.error : `${name} has no result schema`;
    return { ok: false, error: { code: "invalid-args", message } };
  }
  const run = await found.tool.run({ workspace: ws }, rawArgs);
  if (!run.ok) return run;
  return { ok: true, result: toolResultSchemas[name].parse(run.result) };
}
