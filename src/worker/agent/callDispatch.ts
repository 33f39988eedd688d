// Runs one call an agent made: finds the tool among the agent's own, reads its arguments as JSON, then the
// tool's own parse -> run -> meaning (src/worker/agent/tools/toolDefinition.ts). A call that does not parse or fails
// its schema is a tool error the agent reads and can correct, never a crash.
import { findTool, type CatalogTool } from "./toolCatalog";
import type { ToolContext } from "./tools/toolContext";
import { failedCall, type CallOutcome } from "./tools/toolDefinition";

export async function dispatchCall(
  ctx: ToolContext,
  tools: readonly CatalogTool[],
  name: string,
  argsText: string,
): Promise<CallOutcome> {
  const found = findTool(tools, name);
  if ("error" in found) return failedCall(found.error);
  let raw: unknown;
  try {
    raw = argsText.trim() === "" ? {} : JSON.parse(argsText);
  } catch (e) {
    return failedCall(
      `invalid-args: the arguments of ${name} are not JSON (${(e as Error).message}). Send one JSON object.`,
    );
  }
  return found.tool.call(ctx, raw);
}
