// `swarmboard eval`: runs a task suite with each agent count under the same budget and prints what each run solved
// and cost (src/core/evalReport.ts), optionally as JSON. Forced trajectories measure the mechanics; a real model
// running free (--free) measures the swarm. Ctrl-C stops the running swarm, judges what it merged, and skips the rest.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { formatEvalTable } from "../core/evalReport";
import { evalReportSchema, type EvalRun } from "../protocol/evalSuite";
import { checkTrajectories, EvalSuiteError, loadEvalSuite, type EvalTask } from "../worker/eval/evalSuite";
import { runEvalSuite } from "../worker/eval/evalSuiteRun";
import type { EvalOptions } from "./args";
import { checkModelCallsTools, checkModelFile, InputError } from "./inputChecks";
import { noModelHelp } from "./runInputs";

function progressLine(run: EvalRun): string {
  const verdict = run.solved ? "solved" : "NOT solved";
  return `${run.task}, ${run.agents} agent(s): ${verdict} in ${(run.wallMs / 1000).toFixed(1)}s (${run.outcome})\n`;
}

/** The suite's tasks, checked before any swarm runs: a problem is bad input (exit 2) with the file named. */
function suiteTasks(opts: EvalOptions): EvalTask[] {
  try {
    const tasks = loadEvalSuite(path.resolve(opts.suite), opts.tasks);
    if (!opts.free) checkTrajectories(tasks, opts.agents);
    return tasks;
  } catch (error) {
    throw error instanceof EvalSuiteError ? new InputError(error.message) : error;
  }
}

/** Exit 0 when the runs were made and judged (solved or not: the table says which); bad input is 2. */
export async function evalCommand(opts: EvalOptions): Promise<number> {
  const model = opts.model ?? process.env.SWARMBOARD_MODEL;
  if (!model) throw new InputError(noModelHelp);
  const modelPath = await checkModelFile(model);
  await checkModelCallsTools(modelPath, !opts.free);
  const tasks = suiteTasks(opts);
  const how = opts.free ? "the model free" : "forced trajectories";
  process.stdout.write(`eval: ${tasks.length} task(s) x agents ${opts.agents.join(", ")}, ${how}\n`);
  const stop = new AbortController();
  // `on`, not `once`: node-llama-cpp's signal-exit re-sends the signal (and the process dies with the temp folders)
  // when it finds itself the only listener. A second Ctrl-C ends the process at once.
  const onSignal = () => (stop.signal.aborted ? process.exit(130) : stop.abort());
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const report = await runEvalSuite(
    { suite: opts.suite, tasks, arms: opts.agents },
    {
      modelPath,
      threads: opts.threads,
      forced: !opts.free,
      signal: stop.signal,
      ...(opts.kvCells ? { kvCells: opts.kvCells } : {}),
      ...(opts.budgetMs ? { budgetMs: opts.budgetMs } : {}),
      ...(opts.gpu ? { gpu: opts.gpu } : {}),
      ...(opts.kvCacheType ? { kvCacheType: opts.kvCacheType } : {}),
    },
    (run) => process.stdout.write(progressLine(run)),
  ).finally(() => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  });
  process.stdout.write(`\n${formatEvalTable(report)}`);
  if (opts.json !== undefined) {
    await writeFile(opts.json, JSON.stringify(evalReportSchema.parse(report), null, 2) + "\n");
    process.stdout.write(`JSON report: ${path.resolve(opts.json)}\n`);
  }
  // 4: stopped, as for `swarmboard run`.
  return stop.signal.aborted ? 4 : 0;
}
