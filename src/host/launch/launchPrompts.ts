// The command palette's launch: goal, recipe (built-ins and the workspace's own), model (the configured one,
// a file, or a pull), then the agent count with the budget's estimate of how many fit. The model comes
// before the count because the estimate needs the model's facts (bytes per KV cell, shared cells or copy mode).
import * as vscode from "vscode";
import { buildRecipeCatalog } from "../../core/recipeCatalog";
import { suggestRecipe, type ProjectFacts } from "../../core/recipeSuggestion";
import { modelUriFormat, modelUriPrompt } from "../models/modelUris";
import type { LaunchInput } from "./launchInput";

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
    files.map(async (uri) => ({
      file: vscode.workspace.asRelativePath(uri, false),
      text: new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)),
    })),
  );
  const catalog = buildRecipeCatalog(sources);
  const choices = [...catalog.recipes.values()].map((r) => ({
    name: r.name,
    description: r.description,
    origin: catalog.origins.get(r.name) ?? "built-in",
    agents: r.roles.filter((role) => role.name !== r.synthesist).reduce((n, role) => n + role.count, 0),
  }));
  return {
    choices,
    problems: catalog.problems.map((p) => `${p.file}: ${p.field}: expected ${p.expected}, got ${p.got}`),
  };
}

/** In a multi-root workspace: which folder's repository the swarm works in (undefined when cancelled). */
export async function askFolder(
  input: LaunchInput,
  folders: readonly vscode.WorkspaceFolder[],
): Promise<vscode.WorkspaceFolder | undefined> {
  if (folders.length <= 1) return folders[0];
  const picked = await input.pick(
    folders.map((f) => ({ label: f.name, description: f.uri.fsPath, folder: f })),
    "Launch Swarm: which folder?",
    "The swarm works in this folder's git repository",
  );
  return picked?.folder;
}

/** "Launch Swarm (2/3): recipe": the model step is left out when a saved model is used, so the count follows. */
export class LaunchSteps {
  constructor(private readonly total: 3 | 4) {}

  title(step: number, name: string): string {
    return `Launch Swarm (${step}/${this.total}): ${name}`;
  }

  get last(): number {
    return this.total;
  }
}

export async function askGoal(input: LaunchInput, steps: LaunchSteps): Promise<string | undefined> {
  return input.text({
    title: steps.title(1, "goal"),
    prompt: "What should the swarm do?",
    placeholder: "e.g. Fix median for even-length lists",
    validate: (v) =>
      v.trim() === "" ? { message: "Write a goal: the agents plan from it.", blocking: true } : undefined,
  });
}

type RecipeItem = vscode.QuickPickItem & { readonly label: string };

/** The recipe items with the suggested one first, focused, and its reason in its detail line. */
function recipeItems(choices: readonly RecipeChoice[], goal: string, facts: ProjectFacts) {
  const suggestion = suggestRecipe(goal, facts);
  const items: RecipeItem[] = choices.map((c) => ({
    label: c.name,
    description: `${c.origin} · ${c.agents} agents`,
    detail:
      c.name === suggestion.recipe ? `$(lightbulb) Suggested: ${suggestion.reason} ${c.description}` : c.description,
  }));
  const active = items.find((i) => i.label === suggestion.recipe);
  return { items: active === undefined ? items : [active, ...items.filter((i) => i !== active)], active };
}

/**
 * The recipe step: preselected from the goal at once with the facts known now (`facts.now`); when the project's
 * facts arrive later (`facts.later`) the suggestion is redone, unless the person has moved on in the list.
 */
export async function askRecipe(
  input: LaunchInput,
  steps: LaunchSteps,
  choices: readonly RecipeChoice[],
  goal: string,
  facts: { readonly now?: ProjectFacts; readonly later?: Promise<ProjectFacts | undefined> } = {},
): Promise<string | undefined> {
  const first = recipeItems(choices, goal, facts.now ?? {});
  const later =
    facts.now === undefined && facts.later !== undefined
      ? facts.later.then((f) => (f === undefined ? undefined : recipeItems(choices, goal, f)))
      : undefined;
  const picked = await input.pick(first.items, steps.title(2, "recipe"), "How the agents are organised", {
    ...(first.active === undefined ? {} : { active: first.active }),
    ...(later === undefined ? {} : { later }),
  });
  return picked?.label;
}

export type ModelAnswer = { kind: "path"; path: string } | { kind: "pull"; uri: string };

export async function askModel(input: LaunchInput, configured: string): Promise<ModelAnswer | undefined> {
  const items: Array<vscode.QuickPickItem & { id: "configured" | "file" | "pull" }> = [];
  if (configured !== "") items.push({ id: "configured", label: "$(check) Configured model", description: configured });
  items.push(
    { id: "file", label: "$(file-binary) Pick a GGUF file…" },
    { id: "pull", label: "$(cloud-download) Pull a model…", description: `${modelUriFormat} or an https URL` },
  );
  const picked = await input.pick(items, "Launch Swarm (3/4): model");
  if (!picked) return undefined;
  if (picked.id === "configured") return { kind: "path", path: configured };
  if (picked.id === "file") {
    const files = await vscode.window.showOpenDialog({
      title: "Pick a GGUF model",
      canSelectMany: false,
      filters: { "GGUF models": ["gguf"] },
    });
    return files?.[0] ? { kind: "path", path: files[0].fsPath } : undefined;
  }
  const uri = await input.text({ title: "Pull a model", prompt: modelUriPrompt });
  return uri ? { kind: "pull", uri } : undefined;
}

/** The agent-count step's prompt: the recipe's count, the user's limit and the budget's estimate. */
export function agentsPrompt(recipeAgents: number, fit: number | undefined, limit: number): string {
  const estimate =
    fit === undefined ? "" : ` The KV budget fits about ${fit} agents (2,048-token trunk, 1,024-token tails).`;
  return `How many agents? The recipe has ${recipeAgents}; your limit is ${limit}.${estimate}`;
}

export async function askAgents(
  input: LaunchInput,
  steps: LaunchSteps,
  recipeAgents: number,
  fit: number | undefined,
  maxAgents: number,
): Promise<number | undefined> {
  const limit = Math.max(1, Math.min(64, maxAgents));
  const text = await input.text({
    title: steps.title(steps.last, "agents"),
    prompt: agentsPrompt(recipeAgents, fit, limit),
    value: String(Math.min(recipeAgents, limit, fit ?? limit) || 1),
    validate: (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > limit)
        return { message: `Enter a whole number from 1 to ${limit} (swarmboard.maxAgents).`, blocking: true };
      return fit !== undefined && n > fit
        ? { message: `More than the ${fit} the budget fits: agents will wait for cells.`, blocking: false }
        : undefined;
    },
  });
  return text === undefined ? undefined : Number(text);
}
