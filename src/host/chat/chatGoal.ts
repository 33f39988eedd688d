// The goal of a swarm launched from chat: the prompt, plus what the user attached (#file, a selection) as
// paths with line ranges and the selected text, so the agents start where the user points.
import * as vscode from "vscode";

/** Selected text carried into the goal per reference; the agents can read the rest of the file themselves. */
const selectionChars = 2000;

function relative(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

async function describeReference(value: unknown): Promise<string | undefined> {
  if (value instanceof vscode.Uri) return `- ${relative(value)}`;
  if (value instanceof vscode.Location) {
    const { start, end } = value.range;
    const where = `${relative(value.uri)}:${start.line + 1}-${end.line + 1}`;
    if (value.range.isEmpty) return `- ${where}`;
    try {
      const text = (await vscode.workspace.openTextDocument(value.uri)).getText(value.range);
      const cut =
        text.length > selectionChars ? `${text.slice(0, selectionChars)}\n(cut at ${selectionChars} characters)` : text;
      return `- ${where}:\n\`\`\`\n${cut}\n\`\`\``;
    } catch {
      return `- ${where}`;
    }
  }
  if (typeof value === "string" && value.trim() !== "") return `- ${value.trim().slice(0, selectionChars)}`;
  return undefined;
}

/** The prompt and the attached references, as one goal. */
export async function goalFromRequest(request: vscode.ChatRequest): Promise<string> {
  const refs: string[] = [];
  for (const ref of request.references) {
    const line = await describeReference(ref.value);
    if (line !== undefined) refs.push(line);
  }
  const prompt = request.prompt.trim();
  return refs.length === 0 ? prompt : `${prompt}\n\nThe user points at:\n${refs.join("\n")}`;
}
