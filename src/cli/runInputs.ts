// What `swarmboard run` runs, settled before anything is written: a new swarm (checked workspace, model and
// state dir, then a unique id and its record) or an interrupted one (its workspace, model, goal and recipe read
// back from its state dir, so a resume works from any folder and never rewrites the saved inputs).
import path from "node:path";
import { withOverrides } from "../core/withOverrides";
import { defaultAskUserTimeoutSeconds } from "../protocol/steering";
import type { TurnScript } from "../protocol/turnScript";
import type { StandingOptions } from "../worker/standing/standingSwarm";
import { LaunchRefusal, prepareLaunch, type LaunchInputs, type PreparedLaunch } from "../worker/swarmLauncher";
import type { RunOptions } from "./runArgs";
import { checkModelFile, checkNewStateDir, checkResumeStateDir, checkWorkspace, InputError } from "./inputChecks";
import { checkSwarmFits } from "./swarmFitCheck";
import { checkEventsFile, readScriptFile } from "./inputFiles";
import { standingOptions } from "./watchInputs";

export const noModelHelp = `No model given. Swarmboard needs one GGUF model, loaded once for all agents:
  swarmboard model pull hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M     (recommended, ~1.1 GB)
then run with --model <the printed path>, or set SWARMBOARD_MODEL.`;

const defaultThreads = 2;

export interface PreparedRun {
  readonly launch: PreparedLaunch;
  /** --script, read and checked. */
  readonly script?: TurnScript;
  /** --events, checked to be a file that can be appended to (default: the state dir's events.jsonl). */
  readonly eventsFile?: string;
  /** `swarmboard watch`: its trigger stream and rules, checked. */
  readonly standing?: StandingOptions;
}

export type RunFiles = Omit<PreparedRun, "launch">;

/** The files the run reads or writes besides the model, checked before the model is looked at or anything written. */
export async function checkRunFiles(opts: RunOptions): Promise<RunFiles> {
  const script = opts.script === undefined ? undefined : await readScriptFile(opts.script);
  const eventsFile = opts.events === undefined ? undefined : await checkEventsFile(opts.events);
  const standing = opts.watch === undefined ? undefined : await standingOptions(opts.watch);
  return { ...(script ? { script } : {}), ...(eventsFile ? { eventsFile } : {}), ...(standing ? { standing } : {}) };
}

/** The knobs a flag gives, under the start request's names; a flag left out is undefined (the saved one stays). */
export function flagInputs(opts: RunOptions): Partial<LaunchInputs> {
  return {
    agents: opts.agents,
    kvCells: opts.kvCells,
    memoryBudget: opts.memoryBudget,
    poolShareCells: opts.poolShare,
    poolSwarms: opts.poolSwarms,
    gpu: opts.gpu,
    kvCacheType: opts.kvCacheType,
    budgetMs: opts.budgetMs,
    sparseCheckoutAboveMiB: opts.sparseAboveMiB,
    threads: opts.threads,
    engine: opts.engine,
    agentRules: opts.noAgentRules ? false : undefined,
    // Nobody at a terminal (stdin piped or closed): agents' questions are told at once that nobody answers.
    askUserTimeoutSeconds: opts.askUserTimeout ?? (process.stdin.isTTY ? defaultAskUserTimeoutSeconds : 0),
  };
}

/** A refusal of the launcher is bad input here (exit 2); a model to pick is named with where to list them. */
function asInputError(error: unknown): never {
  if (!(error instanceof LaunchRefusal)) throw error;
  const pick = /Pick an instruct model/.test(error.message) ? " List them with `swarmboard model pull --list`." : "";
  const read = error.code === "model-unreadable" ? " Give --model a .gguf file." : "";
  throw new InputError(`${error.message}${pick}${read}`);
}

/** The inputs of a new swarm, checked; writes only once every check passed (its state dir and record). */
async function prepareNew(opts: RunOptions, cwd: string, files: RunFiles): Promise<PreparedLaunch> {
  const givenStateDir = opts.stateDir === undefined ? undefined : await checkNewStateDir(opts.stateDir);
  const workspace = await checkWorkspace(opts.workspace ?? cwd);
  const model = opts.model ?? process.env.SWARMBOARD_MODEL;
  if (!model) throw new InputError(noModelHelp);
  const modelPath = await checkModelFile(model);
  const inputs = withOverrides<LaunchInputs>(
    {
      goal: opts.goal,
      recipe: opts.recipe ?? "organization",
      modelPath,
      workspace,
      threads: defaultThreads,
      approveAsks: opts.approveAsks,
      // A watch is saved as standing, so a resume from VS Code stands again (its stream file is the CLI's alone).
      ...(opts.watch ? { standing: { ...(opts.watch.pollMs ? { pollMs: opts.watch.pollMs } : {}) } } : {}),
    },
    flagInputs(opts),
  );
  return prepareLaunch({
    kind: "new",
    inputs,
    stateDir: (swarmId) =>
      givenStateDir ??
      path.join(path.dirname(workspace), ".swarmboard-state", `${path.basename(workspace)}-${swarmId}`),
    launchedBy: "cli",
    ...(files.script ? { script: files.script } : {}),
    measure: (asked, recipe) =>
      asked.engine?.kind === "remote"
        ? Promise.resolve(
            `engine: ${asked.engine.url} (remote; ${path.basename(modelPath)} read for its vocabulary only)`,
          )
        : localPoolLine({ ...asked, recipe }),
  }).catch(asInputError);
}

/** A flag given on --resume must agree with what the swarm was started with (it continues, it does not change). */
function sameAsSaved(flag: string, given: string | number | undefined, saved: string | number | undefined): void {
  if (given !== undefined && given !== "" && saved !== undefined && given !== saved)
    throw new InputError(
      `${flag} ${given} differs from the swarm's (${saved}): --resume continues the swarm as it was started; leave ${flag} out.`,
    );
}

/** The inputs of an interrupted swarm, read back from its state dir; nothing is written until they check out. */
async function prepareResume(opts: RunOptions, files: RunFiles): Promise<PreparedLaunch> {
  const stateDir = await checkResumeStateDir(opts.stateDir);
  return prepareLaunch({
    kind: "resume",
    stateDir,
    overrides: flagInputs(opts),
    launchedBy: "cli",
    ...(files.script ? { script: files.script } : {}),
    vet: async (inputs) => {
      sameAsSaved("--goal", opts.goal, inputs.goal);
      sameAsSaved("--workspace", opts.workspace && path.resolve(opts.workspace), path.resolve(inputs.workspace));
      const workspace = await checkWorkspace(inputs.workspace, `the saved workspace (${stateDir}/settings.json)`);
      return { workspace, modelPath: await checkModelFile(opts.model ?? inputs.modelPath) };
    },
  }).catch(asInputError);
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

export async function prepareRun(opts: RunOptions, cwd: string): Promise<PreparedRun> {
  const files = await checkRunFiles(opts);
  const launch = opts.resume ? await prepareResume(opts, files) : await prepareNew(opts, cwd, files);
  return { launch, ...files };
}
