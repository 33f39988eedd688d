// Whether a model can be an agent at all, judged from its GGUF metadata before its weights are loaded: an agent
// works only through tool calls in the model's own chat template, so a model without a chat template (a story or
// base model such as stories260K) or whose template has no tool calling is refused with why and what to pick.
// A file shorter than its header says is refused as truncated first (ggufExtent.ts), whatever its template.
import path from "node:path";
import { modelCatalogue } from "../core/modelCatalogue";
import { truncatedModelRefusal } from "./ggufExtent";
import { loadNodeLlamaCpp } from "./nodeLlamaCpp";

/** Instruct models with native tool calling a user can pick instead: the curated catalogue, by name and URI. */
export const suggestedToolModels = modelCatalogue.map((m) => `${m.label} (${m.uri})`).join(", ");

/** Why the model at `modelPath` cannot run agents, or undefined when its template can call tools. */
export async function toolCallingRefusal(modelPath: string): Promise<string | undefined> {
  const { readGgufFileInfo } = await loadNodeLlamaCpp();
  const info = await readGgufFileInfo(modelPath, { readTensorInfo: true });
  const truncated = await truncatedModelRefusal(modelPath, info);
  if (truncated !== undefined) return truncated;
  const template = (info.metadata as { tokenizer?: { chat_template?: unknown } }).tokenizer?.chat_template;
  const name = path.basename(modelPath);
  if (typeof template !== "string" || template.trim() === "") {
    return (
      `${name} has no chat template: it was not trained to hold a conversation or call tools (a story or base ` +
      `model), so its agents could not act. Pick an instruct model with native tool calling: ${suggestedToolModels}.`
    );
  }
  if (!/tool/i.test(template)) {
    return (
      `${name}'s chat template has no tool calling, so its agents could not call their tools. ` +
      `Pick an instruct model with native tool calling: ${suggestedToolModels}.`
    );
  }
  return undefined;
}
