// Loads an eval suite from disk: each sub-folder with a `task.json` is a task (its repository's files, its hidden
// tests, its forced trajectories). Everything is checked before any swarm runs: a bad manifest, a missing folder or
// a missing solution file is refused with the file and the field named.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { formatRecipeProblem } from "../../core/recipeParse";
import { parseEvalTaskText, trajectoryCounts, trajectoryScript } from "../../core/evalTaskParse";
import type { EvalTaskManifest } from "../../protocol/evalSuite";
import type { TurnScript } from "../../protocol/turnScript";

export class EvalSuiteError extends Error {
  override name = "EvalSuiteError";
}

export interface EvalTask {
  /** The task's folder name. */
  readonly id: string;
  readonly manifestPath: string;
  readonly manifest: EvalTaskManifest;
  /** The repository's files, copied into a fresh git repository for each run. */
  readonly repoDir: string;
  /** The hidden acceptance tests. */
  readonly hiddenDir: string;
  /** The forced trajectory for each agent count, as a turn script. */
  readonly scripts: ReadonlyMap<number, TurnScript>;
}

function isDir(p: string): boolean {
  return existsSync(p) && statSync(p).isDirectory();
}

function loadTask(dir: string): EvalTask {
  const manifestPath = path.join(dir, "task.json");
  const parsed = parseEvalTaskText(manifestPath, readFileSync(manifestPath, "utf8"));
  if (!parsed.ok) throw new EvalSuiteError(parsed.problems.map(formatRecipeProblem).join("\n"));
  const { manifest } = parsed;
  const repoDir = path.join(dir, manifest.repo);
  const hiddenDir = path.join(dir, manifest.hidden.dir);
  if (!isDir(repoDir)) throw new EvalSuiteError(`${manifestPath}: field "repo": there is no folder ${repoDir}`);
  if (!isDir(hiddenDir))
    throw new EvalSuiteError(`${manifestPath}: field "hidden.dir": there is no folder ${hiddenDir}`);
  const scripts = new Map<number, TurnScript>();
  for (const count of trajectoryCounts(manifest)) {
    const readTaskFile = (file: string) => {
      const full = path.join(dir, file);
      if (!existsSync(full))
        throw new EvalSuiteError(
          `${manifestPath}: field "trajectories.${count}": an argsFromFiles entry names ${file}, which is not in ${dir}`,
        );
      return readFileSync(full, "utf8");
    };
    scripts.set(count, trajectoryScript(manifest.trajectories[String(count)]!, readTaskFile));
  }
  return { id: path.basename(dir), manifestPath, manifest, repoDir, hiddenDir, scripts };
}

/** The suite's tasks in name order, or only those named in `only` (each must exist). */
export function loadEvalSuite(suiteDir: string, only?: readonly string[]): EvalTask[] {
  if (!isDir(suiteDir)) throw new EvalSuiteError(`the eval suite ${suiteDir} is not a folder`);
  const names = readdirSync(suiteDir)
    .filter((name) => existsSync(path.join(suiteDir, name, "task.json")))
    .sort();
  if (names.length === 0) throw new EvalSuiteError(`${suiteDir} holds no task (a folder with a task.json)`);
  const unknown = (only ?? []).filter((name) => !names.includes(name));
  if (unknown.length > 0)
    throw new EvalSuiteError(`no task ${unknown.join(", ")} in ${suiteDir}; its tasks: ${names.join(", ")}`);
  return names.filter((name) => only === undefined || only.includes(name)).map((n) => loadTask(path.join(suiteDir, n)));
}

/** Refuses a forced eval whose arms lack a trajectory, naming the task and what it has. */
export function checkTrajectories(tasks: readonly EvalTask[], arms: readonly number[]): void {
  for (const task of tasks)
    for (const agents of arms)
      if (!task.scripts.has(agents))
        throw new EvalSuiteError(
          `${task.manifestPath}: field "trajectories": no forced trajectory for ${agents} agent(s) ` +
            `(it has ${[...task.scripts.keys()].join(", ") || "none"}); add one, or run the model free with --free`,
        );
}
