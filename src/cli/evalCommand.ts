// `swarmboard eval`: runs a task suite with each agent count under the same budget and prints what each run solved
// and cost (src/core/evalReport.ts), optionally as JSON. Forced trajectories measure the mechanics; a real model
// running free (--free) measures the swarm.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { formatEvalTable } from "../core/evalReport";
import { evalReportSchema, type EvalRun } from "../protocol/evalSuite";
import { EvalSuiteError, loadEvalSuite } from "../worker/evalSuite";
import { runEvalSuite } from "../worker/evalSuiteRun";
import type { EvalOptions } from "./args";
import { checkModelCallsTools, checkModelFile, InputError } from "./inputChecks";
import { noModelHelp } from "./runInputs";

function progressLine(run: EvalRun): string {
  const verdict = run.solved ? "solved" : "NOT solved";
  return `${run.task}, ${run.agents} agent(s): ${verdict} in ${(run.wallMs / 1000).toFixed(1)}s (${run.outcome})\n`;
}

/** Exit 0 when every run was made and judged (solved or not: the table says which); bad input is 2. */
export async function evalCommand(opts: EvalOptions): Promise<number> {
  const model = opts.model ?? process.env.SWARMBOARD_MODEL;
  if (!model) throw new InputError(noModelHelp);
  const modelPath = await checkModelFile(model);
  await checkModelCallsTools(modelPath, !opts.free);
  let tasks;
  try {
    tasks = loadEvalSuite(path.resolve(opts.suite), opts.tasks);
  } catch (error) {
    if (error instanceof EvalSuiteError) throw new InputError(error.message);
    throw error;
  }
  process.stdout.write(
    `eval: ${tasks.length} task(s) x agents ${opts.agents.join(", ")}, ${opts.free ? "model free" : "forced trajectories"}\n`,
  );
  const report = await runEvalSuite(
    { suite: opts.suite, tasks, arms: opts.agents },
    {
      modelPath,
      threads: opts.threads,
      forced: !opts.free,
      ...(opts.kvCells ? { kvCells: opts.kvCells } : {}),
      ...(opts.budgetMs ? { budgetMs: opts.budgetMs } : {}),
      ...(opts.gpu ? { gpu: opts.gpu } : {}),
      ...(opts.kvCacheType ? { kvCacheType: opts.kvCacheType } : {}),
    },
    (run) => process.stdout.write(progressLine(run)),
  ).catch((error: Error) => {
    if (error instanceof EvalSuiteError) throw new InputError(error.message);
    throw error;
  });
  process.stdout.write(`\n${formatEvalTable(report)}`);
  if (opts.json !== undefined) {
    await writeFile(opts.json, JSON.stringify(evalReportSchema.parse(report), null, 2) + "\n");
    process.stdout.write(`JSON report: ${path.resolve(opts.json)}\n`);
  }
  return 0;
}
