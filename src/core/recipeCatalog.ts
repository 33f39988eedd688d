// The recipes a swarm can be launched with: the built-ins plus the user's files.
// A user's recipe with the name of a built-in replaces it (users tune the defaults by copying them);
// a file with problems is left out and its problems are returned, never thrown, so one bad file
// does not hide the others.
import type { Recipe } from "../protocol/recipe";
import { builtinRecipeInputs } from "./builtinRecipes";
import {
  parseRecipeText,
  parseRecipeValue,
  RecipeError,
  type RecipeParseOptions,
  type RecipeProblem,
} from "./recipeParse";

export interface RecipeSourceFile {
  /** Shown in problems; the workspace passes the path relative to the workspace root. */
  readonly file: string;
  readonly text: string;
}

export interface RecipeCatalog {
  readonly recipes: ReadonlyMap<string, Recipe>;
  /** Where each recipe came from: `built-in` or the file name. */
  readonly origins: ReadonlyMap<string, string>;
  readonly problems: readonly RecipeProblem[];
}

/** The built-in recipes, parsed (throws RecipeError if a built-in were ever broken). */
export function builtinRecipes(options: RecipeParseOptions = {}): Map<string, Recipe> {
  const out = new Map<string, Recipe>();
  for (const [name, input] of Object.entries(builtinRecipeInputs)) {
    const result = parseRecipeValue(`built-in recipe ${name}`, input, options);
    if (!result.ok) throw new RecipeError(result.problems);
    out.set(name, result.recipe);
  }
  return out;
}

export function buildRecipeCatalog(
  files: readonly RecipeSourceFile[],
  options: RecipeParseOptions = {},
): RecipeCatalog {
  const recipes = builtinRecipes(options);
  const origins = new Map<string, string>([...recipes.keys()].map((n) => [n, "built-in"]));
  const problems: RecipeProblem[] = [];
  const seen = new Map<string, string>();
  for (const source of [...files].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))) {
    const result = parseRecipeText(source.file, source.text, options);
    if (!result.ok) {
      problems.push(...result.problems);
      continue;
    }
    const earlier = seen.get(result.recipe.name);
    if (earlier !== undefined) {
      problems.push({
        file: source.file,
        field: "name",
        expected: `a name not already used by ${earlier}`,
        got: JSON.stringify(result.recipe.name),
      });
      continue;
    }
    seen.set(result.recipe.name, source.file);
    recipes.set(result.recipe.name, result.recipe);
    origins.set(result.recipe.name, source.file);
  }
  return { recipes, origins, problems };
}
