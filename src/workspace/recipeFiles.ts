// Reads the user's recipes from `<workspace>/.swarmboard/recipes/*.json`; parsing and checking are pure
// (src/core/recipeCatalog.ts). A missing folder means "no user recipes", not an error.
import { promises as fs } from "fs";
import * as path from "path";
import { buildRecipeCatalog, type RecipeCatalog, type RecipeSourceFile } from "../core/recipeCatalog";
import type { RecipeParseOptions } from "../core/recipeParse";

export const recipeFolder = path.join(".swarmboard", "recipes");

/** The recipe files of a workspace, named relative to its root (forward slashes). */
export async function readRecipeFiles(workspaceRoot: string): Promise<RecipeSourceFile[]> {
  const folder = path.join(workspaceRoot, recipeFolder);
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new Error(`Could not list recipes in ${folder}: ${(e as Error).message}`);
  }
  const files: RecipeSourceFile[] = [];
  for (const name of names.filter((n) => n.endsWith(".json")).sort()) {
    const full = path.join(folder, name);
    const text = await fs.readFile(full, "utf8");
    files.push({ file: path.relative(workspaceRoot, full).split(path.sep).join("/"), text });
  }
  return files;
}

/** Built-in recipes plus the workspace's own; problems name the file, the field and what was expected. */
export async function loadRecipeCatalog(
  workspaceRoot: string,
  options: RecipeParseOptions = {},
): Promise<RecipeCatalog> {
  return buildRecipeCatalog(await readRecipeFiles(workspaceRoot), options);
}
