// The command palette's launch: goal, recipe (built-ins and the workspace's own), model (the configured one,
// a file, or a pull), then the agent count with the budget's estimate of how many fit. The model comes
// before the count because the estimate needs the model's facts (bytes per KV cell, shared cells or copy mode).
import * as vscode from "vscode";
import { buildRecipeCatalog } from "../../core/recipeCatalog";

export interface RecipeChoice {
  readonly name: string;
  readonly description: string;
  readonly origin: string;
  readonly agents: number;
}

/** The built-in recipes plus `.swarmboard/recipes/*.json` of the folder; broken files are reported, not fatal. */
export async function recipeChoices(folder: vscode.Uri): Promise<{ choices: RecipeChoice[]; problems: string[] }> {
  const pattern = new vscode.RelativePattern(folder, ".swarmboard/recipes/*.json");
  const files = await vscode.workspace.findFiles(pattern, undefined, 200);
  const sources = await Promise.all(
    files.map(async (uri) => ({ file: vscode.workspace.asRelativePath(uri, false), text: new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)) })),
  );
  const catalog = buildRecipeCatalog(sources);
  const choices = [...catalog.recipes.values()].map((r) => ({
    name: r.name,
    description: r.description,
    origin: catalog.origins.get(r.name) ?? "built-in",
    agents: r.roles.filter((role) => role.name !== r.synthesist).reduce((n, role) => n + role.count, 0),
  }));
  return { choices, problems: catalog.problems.map((p) => `${p.file}: ${p.field}: expected ${p.expected}, got ${p.got}`) };
}

const title = "Launch Swarm";

export async function askGoal(): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title: `${title} (1/4): goal`,
    prompt: "What should the swarm do?",
    placeHolder: "e.g. Fix median for even-length lists",
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === "" ? "Write a goal: the agents plan from it." : undefined),
  });
}

export async function askRecipe(choices: readonly RecipeChoice[]): Promise<string | undefined> {
  const picked = await vscode.window.showQuickPick(
    choices.map((c) => ({ label: c.name, description: `${c.origin} · ${c.agents} agents`, detail: c.description })),
    { title: `${title} (2/4): recipe`, placeHolder: "How the agents are organised", ignoreFocusOut: true, matchOnDetail: true },
  );
  return picked?.label;
}

export type ModelAnswer = { kind: "path"; path: string } | { kind: "pull"; uri: string };

export async function askModel(configured: string): Promise<ModelAnswer | undefined> {
  const items: Array<vscode.QuickPickItem & { id: "configured" | "file" | "pull" }> = [];
  if (configured !== "") items.push({ id: "configured", label: "$(check) Configured model", description: configured });
  items.push({ id: "file", label: "$(file-binary) Pick a GGUF file…" }, { id: "pull", label: "$(cloud-download) Pull a model…", description: "hf:<user>/<repo>/<file>.gguf or a URL" });
  const picked = await vscode.window.showQuickPick(items, { title: `${title} (3/4): model`, ignoreFocusOut: true });
  if (!picked) return undefined;
  if (picked.id === "configured") return { kind: "path", path: configured };
  if (picked.id === "file") {
    const files = await vscode.window.showOpenDialog({ title: "Pick a GGUF model", canSelectMany: false, filters: { "GGUF models": ["gguf"] } });
    return files?.[0] ? { kind: "path", path: files[0].fsPath } : undefined;
  }
  const uri = await vscode.window.showInputBox({ title: "Pull a model", prompt: "A model URI (hf:…) or an https URL of a .gguf file", ignoreFocusOut: true });
  return uri ? { kind: "pull", uri } : undefined;
}

export async function askAgents(recipeAgents: number, fit: number | undefined, maxAgents: number): Promise<number | undefined> {
  const estimate = fit === undefined ? "" : ` The KV budget fits about ${fit} agents (2,048-token trunk, 1,024-token tails).`;
  const limit = Math.max(1, Math.min(64, maxAgents));
  const text = await vscode.window.showInputBox({
    title: `${title} (4/4): agents`,
    prompt: `How many agents? The recipe has ${recipeAgents}; your limit is ${limit}.${estimate}`,
    value: String(Math.min(recipeAgents, limit, fit ?? limit) || 1),
    ignoreFocusOut: true,
    validateInput: (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > limit) return `Enter a whole number from 1 to ${limit} (swarmboard.maxAgents).`;
      return fit !== undefined && n > fit
        ? { message: `More than the ${fit} the budget fits: agents will wait for cells.`, severity: vscode.InputBoxValidationSeverity.Warning }
        : undefined;
    },
  });
  return text === undefined ? undefined : Number(text);
}
