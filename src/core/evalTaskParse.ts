// A task manifest of an eval suite (`task.json`), checked by its schema: a bad one is refused with the file and
// the field named, like a recipe. Its forced trajectories become turn scripts, arguments read from the task's
// files where the manifest says so (the reader is given: core does no I/O).
import type { z } from "zod";
import { evalTaskManifestSchema, type EvalTaskManifest, type Trajectory } from "../protocol/evalSuite";
import type { TurnScript } from "../protocol/turnScript";
import { problemsFromZod, type RecipeProblem } from "./recipeParse";

export type EvalTaskParseResult =
  | { readonly ok: true; readonly manifest: EvalTaskManifest }
  | { readonly ok: false; readonly problems: readonly RecipeProblem[] };

/** Parses a manifest's JSON text; `file` names it in the problems. */
export function parseEvalTaskText(file: string, text: string): EvalTaskParseResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, problems: [{ file, field: "(file)", expected: `valid JSON (${(e as Error).message})` }] };
  }
  const parsed = evalTaskManifestSchema.safeParse(json);
  if (!parsed.success)
    return { ok: false, problems: withKeyProblems(problemsFromZod(file, json, parsed.error), parsed.error) };
  return { ok: true, manifest: parsed.data };
}

/** A bad record key (an agent count, an agent id) says what the key should be and names the key, not its value. */
function withKeyProblems(problems: RecipeProblem[], error: z.ZodError): RecipeProblem[] {
  return problems.map((problem, i) => {
    const issue = error.issues[i];
    if (issue?.code !== "invalid_key") return problem;
    const expected = issue.issues.map((inner) => inner.message).join("; ");
    return { file: problem.file, field: problem.field, expected, got: JSON.stringify(issue.path.at(-1)) };
  });
}

/**
 * The turn script of a trajectory: each call's `argsFromFiles` entries become argument values read through
 * `readTaskFile` (a path in the task's folder); the arguments must then be an object.
 */
export function trajectoryScript(trajectory: Trajectory, readTaskFile: (relativePath: string) => string): TurnScript {
  const agents: TurnScript["agents"] = {};
  for (const [agent, calls] of Object.entries(trajectory)) {
    agents[agent] = calls.map(({ argsFromFiles, ...call }) => {
      if (argsFromFiles === undefined) return call;
      const args: Record<string, unknown> = { ...(call.args as Record<string, unknown> | undefined) };
      for (const [name, file] of Object.entries(argsFromFiles)) args[name] = readTaskFile(file);
      return { ...call, args };
    });
  }
  return { agents };
}

/** The agent counts a task has a forced trajectory for, ascending. */
export function trajectoryCounts(manifest: EvalTaskManifest): number[] {
  return Object.keys(manifest.trajectories)
    .map(Number)
    .sort((a, b) => a - b);
}
