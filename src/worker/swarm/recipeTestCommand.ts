// Verification is on by default: a new swarm whose recipe names no testCommand verifies its merges with the
// repository's own test command, detected at launch (src/core/testCommandDetection.ts) and saved with the
// recipe, so a resume verifies with the same one. The launch's warning line says what was detected and how to
// change it; `verify: "off"` in the recipe skips the detection.
import type { Recipe } from "../../protocol/recipe";
import { detectRepoTestCommand } from "../../workspace/testCommandFiles";

export interface RecipeWithTests {
  readonly recipe: Recipe;
  /** What was detected, or that nothing was: a line for the launching surface. */
  readonly warning?: string;
}

export async function withDetectedTestCommand(recipe: Recipe, workspace: string): Promise<RecipeWithTests> {
  if (recipe.testCommand !== undefined || recipe.verify === "off") return { recipe };
  const detected = await detectRepoTestCommand(workspace);
  if (detected === undefined)
    return {
      recipe,
      warning: `recipe ${recipe.name} names no testCommand and none was found (package.json test script, pytest, go.mod, Cargo.toml, a Makefile test target): merges are published unverified; set "testCommand" in the recipe to verify them`,
    };
  return {
    recipe: { ...recipe, testCommand: detected.command },
    warning: `recipe ${recipe.name} names no testCommand: merges are verified with "${detected.command}" (from ${detected.source}); a merge whose tests break or cannot run is refused. Set "testCommand" in the recipe to use another, or "verify": "off" to merge unverified`,
  };
}
