// The work items a swarm starts with, and the workspace summary and open work in its trunk: what the repository's
// HEAD holds (src/workspace/headContents.ts) and the test run, joined with what the board says, deduplicated
// before any model sees them.
import { dedupeTasks, taskFromGoal, tasksFromTestOutput } from "../../core/taskSources";
import { missingProgramLine, testsCouldNotRunText, whyTestsCouldNotRun } from "../../core/testsCouldNotRun";
import type { ScratchTestRun } from "../../workspace/scratchTestRun";
import { NO_DEPENDENCY_FOLDERS, type DependencyFolders } from "../../workspace/dependencyFolders";
import { filesAtHead, todoTasksAtHead } from "../../workspace/headContents";
import { finishedTaskIds } from "../../core/finishedTasks";
import type { SwarmBoard } from "../../core/swarmBoard";
import type { Recipe } from "../../protocol/recipe";
import type { Task } from "../../protocol/tasks";
import { userTasksOnBoard } from "../../core/userTaskRecords";

/**
 * The swarm's open tasks: the goal, TODO comments and any `testTasks` (see testFailureTasks), deduplicated,
 * without those the board says were finished.
 */
export async function gatherTasks(
  recipe: Recipe,
  goal: string,
  repoRoot: string,
  board?: SwarmBoard,
  testTasks: readonly Task[] = [],
): Promise<Task[]> {
  const tasks: Task[] = goal.trim() === "" ? [] : [taskFromGoal(goal)];
  if (recipe.taskSources.includes("todo-comments")) tasks.push(...(await todoTasksAtHead(repoRoot)));
  tasks.push(...testTasks);
  // Tasks the person added to this swarm before it was interrupted (a resumed swarm).
  if (board) tasks.push(...userTasksOnBoard(board.board.entries()));
  const finished = board ? finishedTaskIds(board.board.entries()) : new Set<string>();
  return dedupeTasks(tasks).filter((t) => !finished.has(t.id));
}

/**
 * The `test-failures` source: the recipe's test command run once in a scratch worktree (src/workspace/
 * scratchTestRun.ts); each failing test becomes a task. When it cannot run, the reason is returned instead.
 */
export async function testFailureTasks(
  recipe: Recipe,
  run: (command: string) => Promise<ScratchTestRun>,
  dependencies: Pick<DependencyFolders, "names" | "lookedFor"> = NO_DEPENDENCY_FOLDERS,
): Promise<{ tasks: Task[]; note?: string }> {
  if (!recipe.taskSources.includes("test-failures")) return { tasks: [] };
  if (recipe.testCommand === undefined)
    return { tasks: [], note: `recipe ${recipe.name} reads test failures but names no testCommand` };
  const outcome = await run(recipe.testCommand);
  if (!outcome.ran) return { tasks: [], note: `no test-failure tasks: ${outcome.reason}` };
  const problem = whyTestsCouldNotRun(outcome.output, outcome.exitCode);
  if (problem?.kind === "no-tests")
    return {
      tasks: [],
      note: `no test-failure tasks: "${recipe.testCommand}": ${testsCouldNotRunText(problem.why, outcome.output)}`,
    };
  const missing = missingProgram(outcome.output, outcome.exitCode);
  if (missing !== undefined) {
    const found =
      dependencies.names.length > 0
        ? `the worktree sees the checkout's ${dependencies.names.join(", ")} read-only`
        : `no installed dependency folder was found in the checkout (looked for ${dependencies.lookedFor.join(", ") || "none"})`;
    return {
      tasks: [],
      note: `no test-failure tasks: "${recipe.testCommand}" could not run (${missing}); ${found}. Install the project's dependencies in your checkout (e.g. npm install), or name their folder in the recipe's dependencyFolders.`,
    };
  }
  return { tasks: tasksFromTestOutput(outcome.output, outcome.exitCode) };
}

/** The shell's own word that a program was missing (exit 126/127, "not found"), or undefined. */
export function missingProgram(output: string, exitCode: number): string | undefined {
  const line = missingProgramLine(output);
  if (line !== undefined) return line;
  return exitCode === 127 || exitCode === 126 ? `exit code ${exitCode}: a program it calls is missing` : undefined;
}

/**
 * The trunk's workspace summary: the files at HEAD (first 40). Nothing of one swarm is in it, so every swarm on the
 * repository renders the same summary and a second one forks it from the first's trunk (core/trunkPrompt.ts).
 */
export async function workspaceSummary(repoRoot: string): Promise<string> {
  const files = await filesAtHead(repoRoot);
  return `Files at HEAD (${files.length}${files.length > 40 ? ", first 40" : ""}): ${files.slice(0, 40).join(", ")}`;
}

/** The trunk's open work: this swarm's open tasks, and what its board already holds (on a resumed swarm). */
export function openWorkSummary(tasks: readonly Task[], board: SwarmBoard): string {
  const entries = board.board.entries().filter((e) => e.kind !== "MESSAGE");
  const done = entries.filter((e) => e.kind === "RELEASE").length;
  return [
    `Open tasks: ${tasks.map((t) => `[${t.id}] ${t.title}`).join("; ") || "(none)"}`,
    entries.length === 0
      ? "The board is empty: this is a new swarm."
      : `The board already holds ${entries.length} entries from an earlier run (${done} claims released); read them with grep_board and do not redo finished work:\n` +
        entries
          .slice(-30)
          .map((e) => `- ${e.kind} ${e.author}: ${e.text.slice(0, 200)}`)
          .join("\n"),
  ].join("\n");
}
