// The one way a swarm starts or resumes, for the worker's RPC service (palette, MCP, chat, LM tools) and for
// `swarmboard run` alike: the recipe resolved, the refusals (a model that cannot call tools, a router outside a
// standing swarm, a swarm that cannot be resumed), the engine checked, the swarm recorded, a resume's saved inputs
// merged with what is given now, then the run options and the start. A surface adds only its own checks (the
// CLI's paths and fit) through `vet` and `measure`, and its own event sink and approver.
import { HandlerError } from "../core/rpc/rpcPeer";
import { withOverrides } from "../core/withOverrides";
import { withoutApiKey } from "../protocol/engine";
import type { Recipe } from "../protocol/recipe";
import type { SwarmInputs, SwarmRecord } from "../protocol/swarmRecord";
import type { TurnScript } from "../protocol/turnScript";
import type { CommandApprover } from "../workspace/approvals";
import { checkEngineReady, type CheckedEngine } from "./engineCheck";
import { resumeRefusalOf } from "./historyService";
import { modelToolCallingRefusal } from "./modelFiles";
import { startSwarm, type StartedSwarm, type SwarmLaunch } from "./startSwarm";
import { defaultPolicyRules } from "./swarm/defaultPolicy";
import { resolveRecipe } from "./swarm/recipeResolve";
import { withDetectedTestCommand } from "./swarm/recipeTestCommand";
import type { SwarmRunOptions } from "./swarm/swarmRunOptions";
import { refuseRouterOutsideStanding } from "./swarm/declaredSchedule";
import { readSavedSwarm, recordNewSwarm, recordResumedSwarm, type RecordedSwarm } from "./swarmRecords";

/** What a launch asks for, in the form it is saved in (the start request without its state dir and script). */
export type LaunchInputs = Omit<SwarmInputs, "swarmId" | "version">;

/** A launch refused before anything was written; its code travels to the host, its message says what to do. */
export class LaunchRefusal extends HandlerError {}

interface LaunchCommon {
  readonly launchedBy: SwarmRecord["launchedBy"];
  /** Forced turns (tests and demos): the model's own tool calling is then not needed. */
  readonly script?: TurnScript;
  /** The surface's own checks of the inputs, before any refusal; what it returns replaces those fields. */
  readonly vet?: (inputs: LaunchInputs) => Promise<Partial<LaunchInputs>>;
  /** Runs once the engine is checked, before anything is written (the CLI's fit check); its line is kept. */
  readonly measure?: (inputs: LaunchInputs, recipe: Recipe) => Promise<string | undefined>;
}

export interface NewLaunch extends LaunchCommon {
  readonly kind: "new";
  readonly inputs: LaunchInputs;
  /** The state dir of the swarm, given its new id. */
  readonly stateDir: (swarmId: string) => string;
}

export interface ResumeLaunch extends LaunchCommon {
  readonly kind: "resume";
  readonly stateDir: string;
  /** What the resuming surface gives now; each defined field wins over the saved one. */
  readonly overrides: Partial<LaunchInputs>;
}

export interface PreparedLaunch {
  readonly recorded: RecordedSwarm;
  readonly recipe: Recipe;
  readonly inputs: LaunchInputs;
  readonly resume: boolean;
  readonly warnings: readonly string[];
  readonly checkedEngine?: CheckedEngine;
  readonly script?: TurnScript;
  /** What `measure` said. */
  readonly measured?: string;
}

const refused = (code: string) => (error: Error & { code?: unknown }) => {
  throw new LaunchRefusal(typeof error.code === "string" ? error.code : code, error.message);
};

interface Asked {
  readonly inputs: LaunchInputs;
  readonly recipe: Recipe;
  readonly warnings: readonly string[];
  /** A resumed swarm's id (its record is checked once the inputs are vetted). */
  readonly resumes?: string;
  readonly record: () => Promise<RecordedSwarm>;
}

async function askedNew(request: NewLaunch): Promise<Asked> {
  const { inputs } = request;
  const resolved = await resolveRecipe(inputs.recipe, inputs.workspace).catch(refused("bad-recipe"));
  const { recipe, warning } = await withDetectedTestCommand(resolved.recipe, inputs.workspace);
  const warnings = warning === undefined ? resolved.warnings : [...resolved.warnings, warning];
  // The API key never reaches the disk: the saved inputs name the engine without it.
  const saved = { ...inputs, ...(inputs.engine ? { engine: withoutApiKey(inputs.engine) } : {}) };
  const record = () =>
    recordNewSwarm({ recipe, inputs: saved, stateDir: request.stateDir, launchedBy: request.launchedBy });
  return { inputs, recipe, warnings, record };
}

async function askedResume(request: ResumeLaunch): Promise<Asked> {
  const saved = await readSavedSwarm(request.stateDir).catch((error: Error) => {
    throw new LaunchRefusal("not-resumable", `${error.message} Only a state dir that a run wrote can be resumed.`);
  });
  const { swarmId: _id, version: _version, ...inputs } = saved.inputs;
  const record = () => recordResumedSwarm(saved, request.stateDir, request.launchedBy);
  const merged = withOverrides(inputs, request.overrides);
  return { inputs: merged, recipe: saved.recipe, warnings: [], resumes: saved.swarmId, record };
}

async function refuseWithoutToolCalling(modelPath: string): Promise<void> {
  const refusal = await modelToolCallingRefusal(modelPath).catch((error: Error) => {
    throw new LaunchRefusal("model-unreadable", `${modelPath} cannot be read as a GGUF model (${error.message}).`);
  });
  if (refusal !== undefined) throw new LaunchRefusal("model-cannot-call-tools", refusal);
}

/** Everything before the start: inputs, refusals, engine, record. Writes only once every check passed. */
export async function prepareLaunch(request: NewLaunch | ResumeLaunch): Promise<PreparedLaunch> {
  const asked = request.kind === "new" ? await askedNew(request) : await askedResume(request);
  const inputs = { ...asked.inputs, ...(await request.vet?.(asked.inputs)) };
  const { recipe } = asked;
  if (asked.resumes !== undefined) {
    const refusal = await resumeRefusalOf(inputs.workspace, asked.resumes);
    if (refusal !== undefined) throw new LaunchRefusal("not-resumable", refusal);
  }
  // Free agents act only through tool calls; a scripted run forces its calls.
  if (request.script === undefined) await refuseWithoutToolCalling(inputs.modelPath);
  // A recipe with a router stands (Start Watching, swarmboard watch): said before the model loads.
  if (inputs.standing === undefined)
    try {
      refuseRouterOutsideStanding(recipe);
    } catch (error) {
      throw new LaunchRefusal("router-outside-standing", (error as Error).message);
    }
  const checkedEngine = await checkEngineReady(inputs.engine, inputs.modelPath).catch(refused("engine-unready"));
  const measured = await request.measure?.(inputs, recipe);
  const recorded = await asked.record();
  return {
    recorded,
    recipe,
    inputs,
    resume: request.kind === "resume",
    warnings: asked.warnings,
    ...(checkedEngine ? { checkedEngine } : {}),
    ...(request.script ? { script: request.script } : {}),
    ...(measured === undefined ? {} : { measured }),
  };
}

/** How the surface runs the swarm: its approver and event sink, and run options only it knows (the CLI's). */
export interface LaunchSurface<Approver extends CommandApprover> extends Omit<SwarmLaunch<Approver>, "options"> {
  readonly options?: Partial<Omit<SwarmRunOptions, "approver">>;
}

/** The session's options: the inputs as they were asked, with the resolved recipe, the record and the surface's. */
export function runOptionsOf(
  prepared: PreparedLaunch,
  extra: Partial<Omit<SwarmRunOptions, "approver">> = {},
): Omit<SwarmRunOptions, "approver"> {
  const { recipe: _asked, approveAsks: _asks, policy, ...inputs } = prepared.inputs;
  const asked: Omit<SwarmRunOptions, "approver"> = {
    ...inputs,
    recipe: prepared.recipe,
    swarmId: prepared.recorded.swarmId,
    stateDir: prepared.recorded.stateDir,
    policy: policy ?? defaultPolicyRules,
    resume: prepared.resume,
    ...(prepared.checkedEngine ? { checkedEngine: prepared.checkedEngine } : {}),
    ...(prepared.script ? { script: prepared.script } : {}),
  };
  return withOverrides(asked, extra);
}

/** Starts the prepared swarm (the only caller of startSwarm). */
export function startLaunch<Approver extends CommandApprover>(
  prepared: PreparedLaunch,
  surface: LaunchSurface<Approver>,
): StartedSwarm<Approver> {
  const { options, ...sink } = surface;
  return startSwarm({ ...sink, options: runOptionsOf(prepared, options) });
}
