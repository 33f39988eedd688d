// What the launch wizard knows of a project before it suggests a recipe (src/core/recipeSuggestion.ts): the
// command its tests run with and how many TODO/FIXME comments its HEAD holds. Only what is cheap and certain:
// package.json is read, not run, and the TODOs come from git grep at HEAD. Whether the tests fail is not found
// out here: that takes a sandboxed run in a scratch worktree (scratchTestRun.ts), which the fix-failing-tests
// swarm does itself when it starts. Every fact that cannot be read is left out, never an error.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ProjectFacts } from "../core/recipeSuggestion";
import { hasNpmTestScript } from "../core/testCommandDetection";
import { todoTasksAtHead } from "./headContents";

/** `npm test` when the folder's package.json has a test script other than npm init's placeholder. */
export async function packageTestCommand(dir: string): Promise<string | undefined> {
  const manifest = await readFile(path.join(dir, "package.json"), "utf8").catch(() => undefined);
  return manifest !== undefined && hasNpmTestScript(manifest) ? "npm test" : undefined;
}

/** The facts about the repository checked out at `dir` (the wizard's folder). */
export async function gatherProjectFacts(dir: string): Promise<ProjectFacts> {
  const [testCommand, todoComments] = await Promise.all([
    packageTestCommand(dir),
    todoTasksAtHead(dir).then(
      (tasks) => tasks.length,
      () => undefined,
    ),
  ]);
  return {
    ...(testCommand === undefined ? {} : { testCommand }),
    ...(todoComments === undefined ? {} : { todoComments }),
  };
}
