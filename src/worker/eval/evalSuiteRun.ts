// Runs an eval suite: every task with every agent count, one after the other on the one loaded model, and the
// report with its totals per agent count. After a stop (the signal) the report holds the runs that were made.
import path from "node:path";
import { evalArmTotals } from "../../core/evalReport";
import type { EvalReport, EvalRun } from "../../protocol/evalSuite";
import { runEvalTask, type EvalRunOptions } from "./evalRun";
import { checkTrajectories, type EvalTask } from "./evalSuite";

export interface EvalSuiteRequest {
  /** How the suite is named in the report (its folder as given). */
  readonly suite: string;
  readonly tasks: readonly EvalTask[];
  /** The agent counts to compare, e.g. [1, 4]. */
  readonly arms: readonly number[];
}

export async function runEvalSuite(
  request: EvalSuiteRequest,
  options: EvalRunOptions,
  onRun: (run: EvalRun) => void = () => undefined,
): Promise<EvalReport> {
  if (options.forced) checkTrajectories(request.tasks, request.arms);
  const runs: EvalRun[] = [];
  for (const task of request.tasks)
    for (const agents of request.arms) {
      if (options.signal?.aborted) break;
      const run = await runEvalTask(task, agents, options);
      runs.push(run);
      onRun(run);
    }
  return {
    suite: request.suite,
    model: path.basename(options.modelPath),
    forced: options.forced,
    arms: [...request.arms],
    runs,
    totals: evalArmTotals(runs, request.arms),
  };
}
