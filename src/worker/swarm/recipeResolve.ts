// Finds the recipe a run asks for: a built-in or workspace recipe by name, or a recipe file by path.
// Problems name the file, the field and what was expected (src/core/recipeParse.ts).
import { readFile } from "node:fs/promises";
import { watchRecipeInput } from "../../core/builtinRecipes";
import { formatRecipeProblem, parseRecipeText, parseRecipeValue, RecipeError } from "../../core/recipeParse";
import type { Recipe } from "../../protocol/recipe";
import { loadRecipeCatalog } from "../../workspace/recipeFiles";
import { toolNamesForRecipes } from "../agent/toolCatalog";

export interface ResolvedRecipe {
  readonly recipe: Recipe;
  /** Problems in other recipe files of the workspace (they do not stop this run). */
  readonly warnings: readonly string[];
}

export async function resolveRecipe(nameOrFile: string, workspace: string): Promise<ResolvedRecipe> {
  const options = { knownTools: toolNamesForRecipes() };
  if (nameOrFile.endsWith(".json")) {
    const result = parseRecipeText(nameOrFile, await readFile(nameOrFile, "utf8"), options);
    if (!result.ok) throw new RecipeError(result.problems);
    return { recipe: result.recipe, warnings: [] };
  }
  const catalog = await loadRecipeCatalog(workspace, options);
  const recipe = catalog.recipes.get(nameOrFile);
  // The standing swarm's recipe is not among the launchable built-ins; `swarmboard watch` names it.
  if (recipe === undefined && nameOrFile === watchRecipeInput.name) {
    const watch = parseRecipeValue("(built-in watch)", watchRecipeInput, options);
    if (!watch.ok) throw new RecipeError(watch.problems);
    return { recipe: watch.recipe, warnings: [] };
  }
  if (recipe === undefined) {
    throw new Error(`There is no recipe "${nameOrFile}"; the recipes are: ${[...catalog.recipes.keys()].join(", ")}.`);
  }
  return { recipe, warnings: catalog.problems.map(formatRecipeProblem) };
}
