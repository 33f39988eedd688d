// One eval run: a task with one agent count. The task's files become a fresh git repository in a temp folder (the
// user's checkout is never involved), one swarm runs on it (forced along the task's trajectory, or the model free),
// the integration branch is judged by the hidden tests, and what the swarm did is read from its events. The temp
// folder is removed whatever happened, a stop (the signal) included.
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { evalRecipe } from "../../core/evalRecipe";
import { swarmRunMetrics } from "../../core/evalMetrics";
import type { EvalRun } from "../../protocol/evalSuite";
import type { GpuSetting, KvCacheType } from "../../protocol/runtime";
import type { SwarmEvent } from "../../protocol/swarmEvents";
import { denyAllApprover } from "../../workspace/approvals";
import { runGit } from "../../workspace/gitExec";
import { defaultPolicyRules } from "../swarm/defaultPolicy";
import { judgeIntegration, type Verdict } from "./evalJudge";
import type { EvalTask } from "./evalSuite";
import { SwarmSession, type SwarmRunOptions, type SwarmSummary } from "../swarm/swarmSession";

export interface EvalRunOptions {
  readonly modelPath: string;
  readonly threads: number;
  /** true: each agent is forced along the task's trajectory; false: the model runs free. */
  readonly forced: boolean;
  /** The same KV pool cap for every run (default: sized from free memory). */
  readonly kvCells?: number;
  readonly gpu?: GpuSetting;
  readonly kvCacheType?: KvCacheType;
  /** Overrides each task's wall-clock budget. */
  readonly budgetMs?: number;
  /** Where the runs' temp folders are made (default: the OS temp folder). */
  readonly tempRoot?: string;
  /** Stops the running swarm (what it merged is still judged) and the runs not started yet. */
  readonly signal?: AbortSignal;
  /** Every event of the run's swarm, as it happens (progress lines). */
  readonly onEvent?: (event: SwarmEvent) => void;
}

const evalIdentity = { name: "swarmboard eval", email: "eval@swarmboard.invalid" };

/** A git repository holding the task's files in one commit on `main`. */
async function taskRepository(task: EvalTask, dir: string): Promise<void> {
  await cp(task.repoDir, dir, { recursive: true });
  await runGit(dir, ["init", "-q", "-b", "main"]);
  await runGit(dir, ["add", "-A"]);
  await runGit(dir, ["commit", "-q", "-m", `eval task ${task.id}`], { identity: evalIdentity });
}

function sessionOptions(task: EvalTask, agents: number, root: string, options: EvalRunOptions): SwarmRunOptions {
  const script = options.forced ? task.scripts.get(agents) : undefined;
  if (options.forced && script === undefined)
    throw new Error(`${task.manifestPath}: no forced trajectory for ${agents} agent(s)`);
  return {
    swarmId: `eval-${agents}`,
    goal: task.manifest.goal,
    recipe: evalRecipe(task.manifestPath, task.manifest, agents),
    agents,
    modelPath: options.modelPath,
    workspace: path.join(root, "repo"),
    stateDir: path.join(root, "state"),
    threads: options.threads,
    ...(options.kvCells ? { kvCells: options.kvCells } : {}),
    ...(options.gpu ? { gpu: options.gpu } : {}),
    ...(options.kvCacheType ? { kvCacheType: options.kvCacheType } : {}),
    ...(options.budgetMs ? { budgetMs: options.budgetMs } : {}),
    ...(script ? { script } : {}),
    approver: denyAllApprover,
    policy: defaultPolicyRules,
  };
}

/** The hidden tests on the swarm's integration branch; they may take the task's wall clock, at most ten minutes. */
function judge(task: EvalTask, root: string, summary: SwarmSummary): Promise<Verdict> {
  const { hidden, budgets } = task.manifest;
  return judgeIntegration({
    repoPath: path.join(root, "repo"),
    ref: summary.integrationBranch,
    hiddenDir: task.hiddenDir,
    hiddenName: hidden.dir,
    command: hidden.command ?? `node --test ${hidden.dir}/`,
    scratchParent: root,
    timeoutMs: Math.min(budgets.wallClockMs, 10 * 60_000),
  });
}

export async function runEvalTask(task: EvalTask, agents: number, options: EvalRunOptions): Promise<EvalRun> {
  const root = await mkdtemp(path.join(options.tempRoot ?? os.tmpdir(), `swarmboard-eval-${task.id}-${agents}-`));
  try {
    await taskRepository(task, path.join(root, "repo"));
    const events: SwarmEvent[] = [];
    const session = new SwarmSession(sessionOptions(task, agents, root, options), (event) => {
      events.push(event);
      options.onEvent?.(event);
    });
    const stop = () => session.stop();
    options.signal?.addEventListener("abort", stop);
    if (options.signal?.aborted) stop();
    const started = Date.now();
    const ended = await session.run().then(
      (summary) => ({ summary }),
      (error: Error) => ({ failure: error.message }),
    );
    options.signal?.removeEventListener("abort", stop);
    const wallMs = Date.now() - started;
    const verdict: Verdict =
      "summary" in ended
        ? await judge(task, root, ended.summary)
        : { solved: false, note: `the swarm failed: ${ended.failure}` };
    const agentTokens = "summary" in ended ? ended.summary.agents.map((a) => a.end.tokens) : [];
    return {
      task: task.id,
      kind: task.manifest.kind,
      agents,
      solved: verdict.solved,
      ...(verdict.note !== undefined ? { note: verdict.note } : {}),
      outcome: "summary" in ended ? ended.summary.outcome : "failed",
      wallMs,
      ...swarmRunMetrics(events, agentTokens),
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
