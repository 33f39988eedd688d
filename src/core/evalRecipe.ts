// The recipe of one eval run: N workers on the task's goal and TODOs, verified merges with the repository's own
// tests, no synthesist (the board is compiled into the report). Both arms of a task get the same whole budget:
// an arm of N agents gives each agent 1/N of the tokens and of the steps, so one agent alone gets all of them.
import type { EvalTaskManifest } from "../protocol/evalSuite";
import type { Recipe } from "../protocol/recipe";
import { codeTools } from "./builtinRecipes";
import { RecipeError, parseRecipeValue } from "./recipeParse";

const instructions =
  "Claim one part of the goal (its file or its task) so nobody repeats it, change only what your claim covers, " +
  "run the tests, commit, merge your progress, then finish.";

/** The recipe for `agents` workers on `task`; `name` names it in a problem (the manifest's path). */
export function evalRecipe(name: string, task: EvalTaskManifest, agents: number): Recipe {
  if (!Number.isInteger(agents) || agents <= 0) throw new Error(`expected a positive agent count, got ${agents}`);
  const { tokens, steps, wallClockMs } = task.budgets;
  const tokensPerAgent = Math.floor(tokens / agents);
  const stepsPerAgent = Math.floor(steps / agents);
  if (tokensPerAgent < 1 || stepsPerAgent < 1)
    throw new Error(
      `${name}: budgets of ${tokens} tokens and ${steps} steps leave nothing for each of ${agents} agents; ` +
        `raise budgets.tokens and budgets.steps to at least ${agents}`,
    );
  const parsed = parseRecipeValue(name, {
    name: "eval",
    description: `${agents} worker(s) on one eval task; merges verified with the repository's tests.`,
    roles: [{ name: "worker", count: agents, tools: codeTools, instructions }],
    topology: { kind: "fanout" },
    visibility: "shared",
    budgets: { wallClockMs, tokensPerAgent, steps: stepsPerAgent },
    taskSources: ["goal", "todo-comments"],
    ...(task.testCommand ? { testCommand: task.testCommand } : {}),
    merge: true,
  });
  if (!parsed.ok) throw new RecipeError(parsed.problems);
  return parsed.recipe;
}
