// What `swarmboard run` and `watch` ask the shared server for: a new swarm (`swarm/start`, the way a window launches)
// or an interrupted one continued (`history/resume`, the way a window's Resume does). The inputs are checked here as
// an in-process run checks them, so bad input exits 2 before the server is asked; paths travel absolute, since the
// server resolves them from its own folder.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileTimeStamp } from "../core/stateDirNames";
import type { ResumeSwarmParams } from "../protocol/swarmHistoryRpc";
import type { StartSwarmParams, ThisRunOnly } from "../protocol/swarmRpc";
import type { StandingParams } from "../protocol/triggers";
import { defaultPolicy } from "../worker/swarm/defaultPolicy";
import { readSavedSwarm } from "../worker/swarmRecords";
import { checkModelFile, checkNewStateDir, checkResumeStateDir, checkWorkspace, InputError } from "./inputChecks";
import type { RunOptions } from "./runArgs";
import { checkRunFiles, flagInputs, noModelHelp, type RunFiles } from "./runInputs";

/** A server run's request: a start or a resume, with the state dir its events land in. */
export type ServerRequest =
  | { readonly kind: "start"; readonly params: StartSwarmParams; readonly stateDir: string }
  | { readonly kind: "resume"; readonly params: ResumeSwarmParams; readonly stateDir: string };

/** The flags given, under the request's names (a flag left out is not sent). */
function givenFlags(opts: RunOptions): Partial<StartSwarmParams> {
  return Object.fromEntries(Object.entries(flagInputs(opts)).filter(([, v]) => v !== undefined));
}

/** What this run alone asks for: --thinking-tokens, and a watch's recorded trigger stream (checked readable). */
function thisRunOnly(opts: RunOptions, files: RunFiles): ThisRunOnly {
  const triggerFiles = files.standing?.triggerFiles;
  return {
    ...(opts.thinkingTokens ? { thinkingTokens: opts.thinkingTokens } : {}),
    ...(triggerFiles && triggerFiles.length > 0 ? { triggerFiles: [...triggerFiles] } : {}),
  };
}

/** The start request of the run, its inputs checked here as an in-process run checks them. */
export async function serverStartParams(opts: RunOptions, cwd: string): Promise<StartSwarmParams> {
  const files = await checkRunFiles(opts);
  const workspace = await checkWorkspace(opts.workspace ?? cwd);
  const model = opts.model ?? process.env.SWARMBOARD_MODEL;
  if (!model) throw new InputError(noModelHelp);
  const modelPath = await checkModelFile(model);
  // The server resolves a recipe file from its own folder: a relative one is made absolute here.
  const recipe = opts.recipe ?? "organization";
  const recipeFile = path.resolve(cwd, recipe);
  // The swarm's id is the server's to give: the default state dir is named by the time instead.
  const stateDir =
    opts.stateDir === undefined
      ? path.join(path.dirname(workspace), ".swarmboard-state", `${path.basename(workspace)}-${fileTimeStamp()}`)
      : await checkNewStateDir(opts.stateDir);
  const { threads, agentRules, ...rest } = givenFlags(opts);
  const { watch } = opts;
  return {
    ...rest,
    goal: opts.goal,
    recipe: recipe.endsWith(".json") && existsSync(recipeFile) ? recipeFile : recipe,
    modelPath,
    workspace,
    stateDir,
    threads: threads ?? 2,
    policy: defaultPolicy(),
    ...(agentRules === false ? { agentRules } : {}),
    ...(files.script ? { script: files.script } : {}),
    // A watch stands: its poll and rules are saved with it (a resume stands again); its stream is this run's.
    ...(watch ? { standing: standingOf(watch.pollMs, files) } : {}),
    ...thisRunOnly(opts, files),
  };
}

function standingOf(pollMs: number | undefined, files: RunFiles): StandingParams {
  const rules = files.standing?.rules;
  return { ...(pollMs ? { pollMs } : {}), ...(rules ? { rules } : {}) };
}

/**
 * `watch --resume`'s --poll-ms and --trigger-rules, each over the saved one, for this run (the saved ones stay, as in
 * process); nothing when neither is given, so a resume stands as it was started.
 */
function resumedStanding(
  opts: RunOptions,
  files: RunFiles,
  saved: StandingParams | undefined,
): { standing?: StandingParams } {
  const given = opts.watch === undefined ? {} : standingOf(opts.watch.pollMs, files);
  return Object.keys(given).length === 0 ? {} : { standing: { ...saved, ...given } };
}

/** A flag given on --resume must agree with what the swarm was started with (it continues, it does not change). */
function sameAsSaved(flag: string, given: string | undefined, saved: string): void {
  if (given !== undefined && given !== "" && given !== saved)
    throw new InputError(
      `${flag} ${given} differs from the swarm's (${saved}): --resume continues the swarm as it was started; leave ${flag} out.`,
    );
}

/** The resume request: the swarm's id and workspace read back from its state dir, the flags given as overrides. */
export async function serverResumeParams(opts: RunOptions): Promise<ResumeSwarmParams & { stateDir: string }> {
  const files = await checkRunFiles(opts);
  const stateDir = await checkResumeStateDir(opts.stateDir);
  const saved = await readSavedSwarm(stateDir).catch((error: Error) => {
    throw new InputError(`${error.message} Only a state dir that a run wrote can be resumed.`);
  });
  sameAsSaved("--goal", opts.goal, saved.inputs.goal);
  sameAsSaved("--workspace", opts.workspace && path.resolve(opts.workspace), path.resolve(saved.inputs.workspace));
  const workspace = await checkWorkspace(saved.inputs.workspace, `the saved workspace (${stateDir}/settings.json)`);
  const modelPath = await checkModelFile(opts.model ?? saved.inputs.modelPath);
  return {
    ...givenFlags(opts),
    workspace,
    swarmId: saved.swarmId,
    ...(modelPath === saved.inputs.modelPath ? {} : { modelPath }),
    ...(files.script ? { script: files.script } : {}),
    ...resumedStanding(opts, files, saved.inputs.standing),
    ...thisRunOnly(opts, files),
    stateDir,
  };
}

/** The run's request to the server: a resume with --resume, else a start. */
export async function serverRequest(opts: RunOptions, cwd: string): Promise<ServerRequest> {
  if (opts.resume) {
    const { stateDir, ...params } = await serverResumeParams(opts);
    return { kind: "resume", params, stateDir };
  }
  const params = await serverStartParams(opts, cwd);
  return { kind: "start", params, stateDir: params.stateDir };
}
