// What the repository's HEAD holds, read for a swarm's start: its files (for the trunk's workspace summary)
// and the tasks its TODO/FIXME comments name (the fast path in code: found by git grep, no model involved).
import { tasksFromTodoComments } from "../core/taskSources";
import type { Task } from "../protocol/tasks";
import { gitText, runGit } from "./gitExec";

/** Files committed at HEAD, in git's order. */
export async function filesAtHead(repoRoot: string): Promise<string[]> {
  return (await gitText(repoRoot, ["ls-tree", "-r", "--name-only", "HEAD"])).split("\n").filter(Boolean);
}

/** A task per TODO or FIXME comment in the files committed at HEAD (the first 200 files that have one). */
export async function todoTasksAtHead(repoRoot: string): Promise<Task[]> {
  // git grep exits 1 when nothing matches.
  const grep = await runGit(repoRoot, ["grep", "-l", "-I", "-E", "TODO|FIXME", "HEAD", "--"], { okExitCodes: [1] });
  const files = grep.stdout.split("\n").filter(Boolean);
  const tasks: Task[] = [];
  for (const entry of files.slice(0, 200)) {
    const file = entry.replace(/^HEAD:/, "");
    // The whole text, blank lines kept: the tasks' file:line refs count them.
    const text = (await runGit(repoRoot, ["show", `HEAD:${file}`])).stdout;
    tasks.push(...tasksFromTodoComments(file, text));
  }
  return tasks;
}
