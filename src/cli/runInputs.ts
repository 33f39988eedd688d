// What `swarmboard run` runs, settled before anything is written: a new swarm (checked workspace, model and
// state dir, then a unique id and its record) or an interrupted one (its workspace, model, goal and recipe read
// back from its state dir, so a resume works from any folder and never rewrites the saved inputs).
import path from "node:path";
import type { EngineSettings } from "../protocol/engine";
import type { Recipe } from "../protocol/recipe";
import type { GpuSetting, KvCacheType } from "../protocol/runtime";
import { recordNewSwarm, readSavedSwarm, recordResumedSwarm, type RecordedSwarm } from "../worker/swarmRecords";
import { checkEngineReady, type CheckedEngine } from "../worker/engineCheck";
import { resolveRecipe } from "../worker/swarm/recipeResolve";
import { refuseRouterOutsideStanding } from "../worker/swarm/declaredSchedule";
import { resumeRefusalOf } from "../worker/historyService";
import type { RunOptions } from "./runArgs";
import {
  checkModelCallsTools,
  checkModelFile,
  checkNewStateDir,
  checkResumeStateDir,
  checkWorkspace,
  InputError,
} from "./inputChecks";
import { checkSwarmFits } from "./swarmFitCheck";
import { checkEventsFile, readScriptFile } from "./inputFiles";
import { standingOptions } from "./watchInputs";
import type { TurnScript } from "../protocol/turnScript";
import type { StandingOptions } from "../worker/standing/standingSwarm";

export const noModelHelp = `No model given. Swarmboard needs one GGUF model, loaded once for all agents:
  swarmboard model pull hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M     (recommended, ~1.1 GB)
then run with --model <the printed path>, or set SWARMBOARD_MODEL.`;

const defaultThreads = 2;

export interface PreparedRun {
  readonly recorded: RecordedSwarm;
  readonly goal: string;
  readonly recipe: Recipe;
  readonly modelPath: string;
  readonly workspace: string;
  readonly threads: number;
  readonly agents?: number;
  readonly kvCells?: number;
  readonly gpu?: GpuSetting;
  readonly kvCacheType?: KvCacheType;
  readonly engine?: EngineSettings;
  /** The remote engine, opened and checked before anything was written; the swarm's setup uses it. */
  readonly checkedEngine?: CheckedEngine;
  readonly budgetMs?: number;
  readonly sparseCheckoutAboveMiB?: number;
  readonly resume: boolean;
  readonly warnings: readonly string[];
  /** The pool the swarm gets and why that many cells (a new swarm; a resumed one says it in its budget). */
  readonly poolLine?: string;
  /** --script, read and checked. */
  readonly script?: TurnScript;
  /** --events, checked to be a file that can be appended to (default: the state dir's events.jsonl). */
  readonly eventsFile?: string;
  /** `swarmboard watch`: its trigger stream and rules, checked. */
  readonly standing?: StandingOptions;
}

type RunFiles = Pick<PreparedRun, "script" | "eventsFile" | "standing">;

/** The files the run reads or writes besides the model, checked before the model is looked at or anything written. */
async function checkRunFiles(opts: RunOptions): Promise<RunFiles> {
  const script = opts.script === undefined ? undefined : await readScriptFile(opts.script);
  const eventsFile = opts.events === undefined ? undefined : await checkEventsFile(opts.events);
  const standing = opts.watch === undefined ? undefined : await standingOptions(opts.watch);
  return { ...(script ? { script } : {}), ...(eventsFile ? { eventsFile } : {}), ...(standing ? { standing } : {}) };
}

/** The inputs of a new swarm, checked; writes only once every check passed (its state dir and record). */
async function prepareNew(opts: RunOptions, cwd: string): Promise<PreparedRun> {
  const givenStateDir = opts.stateDir === undefined ? undefined : await checkNewStateDir(opts.stateDir);
  const workspace = await checkWorkspace(opts.workspace ?? cwd);
  const files = await checkRunFiles(opts);
  const model = opts.model ?? process.env.SWARMBOARD_MODEL;
  if (!model) throw new InputError(noModelHelp);
  const modelPath = await checkModelFile(model);
  await checkModelCallsTools(modelPath, opts.script !== undefined);
  const { recipe, warnings } = await resolveRecipe(opts.recipe ?? "organization", workspace).catch((error: Error) => {
    throw new InputError(error.message);
  });
  // A recipe with a router stands (swarmboard watch); said before the model loads.
  if (opts.watch === undefined)
    try {
      refuseRouterOutsideStanding(recipe);
    } catch (error) {
      throw new InputError((error as Error).message);
    }
  const threads = opts.threads ?? defaultThreads;
  const settings = {
    ...(opts.agents ? { agents: opts.agents } : {}),
    ...(opts.kvCells ? { kvCells: opts.kvCells } : {}),
    ...(opts.gpu ? { gpu: opts.gpu } : {}),
    ...(opts.kvCacheType ? { kvCacheType: opts.kvCacheType } : {}),
    ...(opts.budgetMs ? { budgetMs: opts.budgetMs } : {}),
    ...(opts.sparseAboveMiB !== undefined ? { sparseCheckoutAboveMiB: opts.sparseAboveMiB } : {}),
  };
  const checkedEngine = await checkEngineReady(opts.engine, modelPath).catch((error: Error) => {
    throw new InputError(error.message);
  });
  const poolLine =
    opts.engine?.kind === "remote"
      ? `engine: ${opts.engine.url} (remote; ${path.basename(modelPath)} read for its vocabulary only)`
      : await localPoolLine({ modelPath, threads, goal: opts.goal, recipe, ...settings });
  const recorded = await recordNewSwarm({
    recipe,
    inputs: {
      goal: opts.goal,
      recipe: opts.recipe ?? "organization",
      modelPath,
      workspace,
      threads,
      approveAsks: opts.approveAsks,
      ...settings,
      // A watch is saved as standing, so a resume from VS Code stands again (its stream file is the CLI's alone).
      ...(opts.watch ? { standing: { ...(opts.watch.pollMs ? { pollMs: opts.watch.pollMs } : {}) } } : {}),
    },
    stateDir: (swarmId) =>
      givenStateDir ??
      path.join(path.dirname(workspace), ".swarmboard-state", `${path.basename(workspace)}-${swarmId}`),
    launchedBy: "cli",
  });
  return {
    recorded,
    goal: opts.goal,
    recipe,
    modelPath,
    workspace,
    threads,
    resume: false,
    warnings,
    poolLine,
    ...files,
    ...settings,
    ...(opts.engine ? { engine: opts.engine } : {}),
    ...(checkedEngine ? { checkedEngine } : {}),
  };
}

/** A flag given on --resume must agree with what the swarm was started with (it continues, it does not change). */
function sameAsSaved(flag: string, given: string | number | undefined, saved: string | number | undefined): void {
  if (given !== undefined && given !== "" && saved !== undefined && given !== saved)
    throw new InputError(
      `${flag} ${given} differs from the swarm's (${saved}): --resume continues the swarm as it was started; leave ${flag} out.`,
    );
}

/** The inputs of an interrupted swarm, read back from its state dir; nothing is written until they check out. */
async function prepareResume(opts: RunOptions): Promise<PreparedRun> {
  const stateDir = await checkResumeStateDir(opts.stateDir);
  const files = await checkRunFiles(opts);
  const saved = await readSavedSwarm(stateDir).catch((error: Error) => {
    throw new InputError(`${error.message} Only a state dir that a run wrote can be resumed.`);
  });
  const { inputs } = saved;
  sameAsSaved("--goal", opts.goal, inputs.goal);
  sameAsSaved("--workspace", opts.workspace && path.resolve(opts.workspace), path.resolve(inputs.workspace));
  const workspace = await checkWorkspace(inputs.workspace, `the saved workspace (${stateDir}/settings.json)`);
  const refusal = await resumeRefusalOf(workspace, saved.swarmId);
  if (refusal !== undefined) throw new InputError(refusal);
  const modelPath = await checkModelFile(opts.model ?? inputs.modelPath);
  await checkModelCallsTools(modelPath, opts.script !== undefined);
  const agents = opts.agents ?? inputs.agents;
  const kvCells = opts.kvCells ?? inputs.kvCells;
  const gpu = opts.gpu ?? inputs.gpu;
  const kvCacheType = opts.kvCacheType ?? inputs.kvCacheType;
  const budgetMs = opts.budgetMs ?? inputs.budgetMs;
  const sparseCheckoutAboveMiB = opts.sparseAboveMiB ?? inputs.sparseCheckoutAboveMiB;
  const recorded = await recordResumedSwarm(saved, stateDir, "cli");
  return {
    recorded,
    goal: inputs.goal,
    recipe: saved.recipe,
    modelPath,
    workspace,
    threads: opts.threads ?? inputs.threads,
    resume: true,
    warnings: [],
    ...files,
    ...(opts.engine ? { engine: opts.engine } : {}),
    ...(agents ? { agents } : {}),
    ...(kvCells ? { kvCells } : {}),
    ...(gpu ? { gpu } : {}),
    ...(kvCacheType ? { kvCacheType } : {}),
    ...(budgetMs ? { budgetMs } : {}),
    ...(sparseCheckoutAboveMiB !== undefined ? { sparseCheckoutAboveMiB } : {}),
  };
}

/** The local runtime's pool for this swarm, checked to fit before anything is written. */
async function localPoolLine(input: Parameters<typeof checkSwarmFits>[0]): Promise<string> {
  const fit = await checkSwarmFits(input);
  const placement = fit.placement;
  return (
    `KV pool: ${fit.pool.origin}; ${fit.kvType} cells on ${placement.backend}` +
    (placement.backend === "cpu" ? "" : ` (${placement.gpuLayers}/${placement.modelLayers} layers offloaded)`)
  );
}

export function prepareRun(opts: RunOptions, cwd: string): Promise<PreparedRun> {
  return opts.resume ? prepareResume(opts) : prepareNew(opts, cwd);
}
