// Launches a swarm: refuses in an untrusted workspace, collects the answers (from the command's argument or
// the prompts), loads the model in the worker under a cancellable progress notification, starts the swarm,
// records it in the store and opens the panel. Every refusal and failure says what happened and what to do.
import { existsSync } from "node:fs";
import { cpus } from "node:os";
import * as vscode from "vscode";
import { toErrorData } from "../../core/rpc/rpcPeer";
import type { ProjectFacts } from "../../core/recipeSuggestion";
import { projectFactsMethod, startSwarmMethod, type StartSwarmParams } from "../../protocol/swarmRpc";
import { engineChoice } from "./engineChoice";
import { runtimeSettings } from "./runtimeSettings";
import { webSettingsOf, type Settings } from "../../protocol/settings";
import { readSettings } from "../configuration";
import type { HostLog } from "../hostLog";
import { pullModel, type ModelDeps } from "../models/selectModel";
import type { SwarmStore } from "../swarm/swarmStore";
import type { WorkerProcess } from "../workerProcess";
import { parseLaunchArgs, type LaunchArgs, type LaunchResult } from "./launchArgs";
import type { LaunchInput } from "./launchInput";
import { askEditorContext, type LaunchContext } from "./editorContext";
import { askAgents, askFolder, askGoal, askModel, askRecipe, LaunchSteps, recipeChoices } from "./launchPrompts";
import { watchTrunkDecode } from "./trunkProgress";
import { loadModel, preloadModel } from "./loadModelForLaunch";
import { newStateDirName } from "../../core/stateDirNames";

export interface LaunchDeps {
  readonly worker: WorkerProcess;
  readonly store: SwarmStore;
  readonly log: HostLog;
  /** Where swarm state lives: outside the user's repository (the extension's storage). */
  readonly storageDir: vscode.Uri;
  /** The prompts' widgets (tests answer them through it). */
  readonly input: LaunchInput;
  /** Pulling and remembering a model picked during the launch. */
  readonly models: ModelDeps;
  /** Where a remote engine's API key is kept. */
  readonly secrets: vscode.SecretStorage;
  openPanel(): void;
}

export const untrustedReason =
  "Swarmboard does not launch swarms in an untrusted workspace: its agents edit files and run commands. Trust this folder (Workspaces: Manage Workspace Trust) and launch again.";

function defaultThreads(settings: Settings): number {
  return settings.threads > 0 ? settings.threads : Math.max(1, Math.min(4, cpus().length - 1));
}

/** `context`: the active editor's file, selection and errors the user chose to add to the goal. */
export async function launchSwarm(deps: LaunchDeps, raw: unknown, context?: LaunchContext): Promise<LaunchResult> {
  const result = await launch(deps, raw, context);
  if (result.outcome === "refused" || result.outcome === "failed") {
    deps.log.warn(`launch ${result.outcome}: ${result.reason}`);
    void vscode.window.showErrorMessage(`Swarmboard: ${result.reason}`);
  }
  return result;
}

/** "Launch Swarm with Editor Context": asks what of the active editor goes into the goal, then launches. */
export async function launchWithEditorContext(deps: LaunchDeps, raw: unknown): Promise<LaunchResult> {
  const context = await askEditorContext(deps.input);
  if (context === undefined) return { outcome: "cancelled", reason: "The launch was cancelled; nothing was started." };
  if ("reason" in context) {
    void vscode.window.showErrorMessage(`Swarmboard: ${context.reason}`);
    return { outcome: "refused", reason: context.reason };
  }
  return launchSwarm(deps, raw, context);
}

/** The folder the swarm works in: the context's, the one a folder argument is in, else the user's pick of several. */
async function launchFolder(
  deps: LaunchDeps,
  raw: unknown,
  context: LaunchContext | undefined,
): Promise<vscode.WorkspaceFolder | undefined | "cancelled"> {
  if (context) return context.folder;
  if (raw instanceof vscode.Uri) return vscode.workspace.getWorkspaceFolder(raw);
  const folders = vscode.workspace.workspaceFolders ?? [];
  // Arguments name their workspace (or take the first folder); only the prompts ask.
  if (raw !== undefined) return folders[0];
  return (await askFolder(deps.input, folders)) ?? (folders.length > 1 ? "cancelled" : undefined);
}

async function launch(deps: LaunchDeps, raw: unknown, context: LaunchContext | undefined): Promise<LaunchResult> {
  if (!vscode.workspace.isTrusted) return { outcome: "refused", reason: untrustedReason };
  const chosen = await launchFolder(deps, raw, context);
  if (chosen === "cancelled") return { outcome: "cancelled", reason: "The launch was cancelled; nothing was started." };
  const folder = chosen;
  const settingsResult = readSettings();
  if (!settingsResult.ok)
    return { outcome: "refused", reason: `Fix your settings first: ${settingsResult.problems.join(" ")}` };
  const settings = settingsResult.settings;
  let args: LaunchArgs;
  let fit: number | undefined;
  if (raw !== undefined && !(raw instanceof vscode.Uri)) {
    const parsed = parseLaunchArgs(raw);
    if (!parsed.ok) return { outcome: "refused", reason: parsed.reason };
    args = parsed.args;
  } else {
    if (!folder)
      return { outcome: "refused", reason: "Open a folder (a git repository) first: a swarm works in a repository." };
    const asked = await ask(deps, folder.uri, settings);
    if (asked.outcome !== "answered") return asked;
    args = asked.args;
    fit = asked.fit;
  }
  if (context) {
    const withContext = context.withGoal(args.goal);
    if (!withContext.ok) return { outcome: "refused", reason: withContext.reason };
    args = { ...args, goal: withContext.goal };
  }
  const workspace = args.workspace ?? folder?.uri.fsPath;
  if (!workspace)
    return { outcome: "refused", reason: "Open a folder (a git repository) first: a swarm works in a repository." };
  const modelPath = args.modelPath ?? settings.modelPath;
  if (modelPath === "")
    return {
      outcome: "refused",
      reason: "No model is set: set swarmboard.modelPath, or launch from the command palette and pick or pull one.",
    };
  const threads = args.threads ?? defaultThreads(settings);
  const runtime = runtimeSettings(settings, args.kvCells);
  const engine = await engineChoice(settings, deps.secrets);
  if ("refusal" in engine) return { outcome: "refused", reason: engine.refusal };
  // A remote engine is checked by the worker before any agent starts; there is no local model to load first.
  if (fit === undefined && engine.engine?.kind !== "remote") {
    const loaded = await loadModel(deps, modelPath, threads, runtime);
    if (loaded.outcome !== "loaded") return loaded;
  }
  const stateDir = newStateDir(deps.storageDir);
  const params: StartSwarmParams = {
    goal: args.goal,
    recipe: args.recipe,
    modelPath,
    workspace,
    stateDir,
    threads,
    ...runtime,
    ...engine,
    policy: settings.commandPolicy,
    agentRules: settings.agentRules,
    web: webSettingsOf(settings),
    askUserTimeoutSeconds: settings.askUserTimeoutSeconds,
    ...(settings.sparseCheckoutAboveMiB === null ? {} : { sparseCheckoutAboveMiB: settings.sparseCheckoutAboveMiB }),
    ...(args.agents ? { agents: args.agents } : {}),
    ...(args.budgetMs ? { budgetMs: args.budgetMs } : {}),
    ...(args.script ? { script: args.script } : {}),
    ...(args.standing ? { standing: args.standing } : {}),
  };
  try {
    const { swarmId } = await deps.worker.request(startSwarmMethod, params);
    deps.store.launched(swarmId, { workspace, stateDir, params });
    deps.log.info(`swarm ${swarmId} launched (${args.recipe}, ${args.agents ?? "recipe's"} agents, ${modelPath})`);
    deps.openPanel();
    void watchTrunkDecode(deps, swarmId);
    return { outcome: "launched", swarmId };
  } catch (err) {
    const { code, message } = toErrorData(err);
    return { outcome: "failed", reason: `The swarm did not start (${code}): ${message}` };
  }
}

type Asked = { outcome: "answered"; args: LaunchArgs; fit: number } | LaunchResult;

async function ask(deps: LaunchDeps, folder: vscode.Uri, settings: Settings): Promise<Asked> {
  const cancelled = { outcome: "cancelled" as const, reason: "The launch was cancelled; nothing was started." };
  // A saved model that is still there is used without asking (Select Model changes it).
  const saved = settings.modelPath !== "" && existsSync(settings.modelPath) ? settings.modelPath : undefined;
  const steps = new LaunchSteps(saved === undefined ? 4 : 3);
  const threads = defaultThreads(settings);
  // The saved model loads while the goal is typed, so the model step rarely waits (the worker keeps it either way).
  const preload =
    saved !== undefined && settings.engine !== "remote"
      ? preloadModel(deps, saved, threads, runtimeSettings(settings))
      : undefined;
  // Asked while the goal is typed; the recipe step never waits for it (it updates its suggestion when it comes).
  let known: ProjectFacts | undefined;
  const facts = Promise.resolve()
    .then(() => deps.worker.request(projectFactsMethod, { workspace: folder.fsPath }))
    .then(
      (f) => (known = f),
      (err: unknown) => {
        deps.log.warn(`no project facts for the recipe suggestion: ${toErrorData(err).message}`);
        return undefined;
      },
    );
  const goal = await askGoal(deps.input, steps);
  if (goal === undefined) return cancelled;
  const { choices, problems } = await recipeChoices(folder);
  if (problems.length > 0)
    void vscode.window.showWarningMessage(`Swarmboard: some recipe files were left out: ${problems.join("; ")}`);
  const recipe = await askRecipe(deps.input, steps, choices, goal, {
    ...(known === undefined ? {} : { now: known }),
    later: facts,
  });
  if (recipe === undefined) return cancelled;
  const modelPath = saved ?? (await askModelPath(deps, settings.modelPath));
  if (modelPath === undefined) return cancelled;
  const loaded =
    settings.engine === "remote"
      ? { outcome: "loaded" as const, fit: settings.maxAgents }
      : await loadModel(deps, modelPath, threads, runtimeSettings(settings), preload);
  if (loaded.outcome !== "loaded") return loaded;
  if (saved === undefined) await deps.models.memory.remember(modelPath);
  const fit = loaded.fit;
  const agents = await askAgents(
    deps.input,
    steps,
    choices.find((c) => c.name === recipe)?.agents ?? 1,
    fit,
    settings.maxAgents,
  );
  if (agents === undefined) return cancelled;
  return { outcome: "answered", args: { goal: goal.trim(), recipe, agents, modelPath, threads }, fit };
}

async function askModelPath(deps: LaunchDeps, configured: string): Promise<string | undefined> {
  const model = await askModel(deps.input, configured);
  if (model === undefined) return undefined;
  return model.kind === "path" ? model.path : pullModel(deps.models, model.uri);
}

/** A fresh folder name for a swarm's state, outside the user's repository (the extension's storage). */
function newStateDir(storageDir: vscode.Uri): string {
  return vscode.Uri.joinPath(storageDir, "swarms", newStateDirName()).fsPath;
}
