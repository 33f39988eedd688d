// The durable record of every swarm, written the same way whether VS Code (the worker's start RPC) or the CLI
// launched it: a unique id, `recipe.json` and `settings.json` in its state dir, and its registry record, which
// then follows the run (owner while it runs, outcome when it ends). A resume reads the same files back.
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { extensionVersion } from "../protocol/buildInfo";
import { recipeSchema, type Recipe } from "../protocol/recipe";
import { savedSwarmInputsSchema, type SwarmInputs, type SwarmRecord } from "../protocol/swarmRecord";
import { headCommit } from "../workspace/repoFacts";
import { newSwarmId } from "../workspace/swarmIds";
import { SwarmRegistry, thisProcessOwner } from "../workspace/swarmRegistry";
import type { SwarmSummary } from "./swarm/swarmSession";

export interface NewSwarmInput {
  readonly recipe: Recipe;
  /** What the swarm was asked, as it will be saved (the id is added here). */
  readonly inputs: Omit<SwarmInputs, "swarmId" | "version">;
  /** The state dir of the swarm, given its new id (the CLI's default dir is named after it). */
  readonly stateDir: (swarmId: string) => string;
  readonly launchedBy: SwarmRecord["launchedBy"];
}

export interface RecordedSwarm {
  readonly swarmId: string;
  readonly stateDir: string;
  readonly registry: SwarmRegistry;
}

/** Gives the swarm a unique id, writes its recipe and inputs into its state dir and registers it. */
export async function recordNewSwarm(input: NewSwarmInput): Promise<RecordedSwarm> {
  const registry = await SwarmRegistry.forRepository(input.inputs.workspace);
  const swarmId = await newSwarmId(input.recipe.name, registry);
  const stateDir = input.stateDir(swarmId);
  await mkdir(stateDir, { recursive: true });
  await writeFile(path.join(stateDir, "recipe.json"), JSON.stringify(input.recipe, null, 2));
  const saved: SwarmInputs = { ...input.inputs, swarmId, version: extensionVersion };
  await writeFile(path.join(stateDir, "settings.json"), JSON.stringify(saved, null, 2));
  await registry.write({
    swarmId,
    workspace: registry.topLevel,
    stateDir,
    goal: input.inputs.goal,
    recipe: input.recipe.name,
    launchedBy: input.launchedBy,
    createdAt: Date.now(),
    baseSha: await headCommit(registry.topLevel),
    owner: thisProcessOwner(),
    version: extensionVersion,
  });
  return { swarmId, stateDir, registry };
}

export interface SavedSwarm {
  readonly swarmId: string;
  readonly inputs: SwarmInputs;
  readonly recipe: Recipe;
}

async function readJson(file: string, what: string): Promise<unknown> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new Error(`${file} cannot be read (${error.code ?? error.message}): it should hold ${what}.`);
  });
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON (${(error as Error).message}): it should hold ${what}.`);
  }
}

/** The inputs and recipe a swarm's first run saved in its state dir; each missing or broken part is named. */
export async function readSavedSwarm(stateDir: string): Promise<SavedSwarm> {
  const isDir = await stat(stateDir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) throw new Error(`There is no swarm state dir at ${stateDir}: give the state dir a run printed.`);
  const settingsFile = path.join(stateDir, "settings.json");
  const inputs = savedSwarmInputsSchema.safeParse(await readJson(settingsFile, "the inputs of the swarm's first run"));
  if (!inputs.success) {
    const issue = inputs.error.issues[0];
    throw new Error(`${settingsFile} is not a swarm's saved inputs (${issue?.path.join(".")}: ${issue?.message}).`);
  }
  const recipeFile = path.join(stateDir, "recipe.json");
  const recipe = recipeSchema.safeParse(await readJson(recipeFile, "the recipe the swarm ran"));
  if (!recipe.success) throw new Error(`${recipeFile} is not a recipe (${recipe.error.issues[0]?.message}).`);
  // Runs before swarm ids were unique used the recipe's name as the id.
  const swarmId = inputs.data.swarmId ?? recipe.data.name.replace(/[^a-z0-9-]/g, "-");
  return { swarmId, inputs: inputs.data, recipe: recipe.data };
}

/** Marks a swarm as running again in this process; a run from before the registry gets its record now. */
export async function recordResumedSwarm(
  saved: SavedSwarm,
  stateDir: string,
  launchedBy: SwarmRecord["launchedBy"],
): Promise<RecordedSwarm> {
  const registry = await SwarmRegistry.forRepository(saved.inputs.workspace);
  const existing = await registry.get(saved.swarmId);
  const base: SwarmRecord = existing ?? {
    swarmId: saved.swarmId,
    workspace: registry.topLevel,
    stateDir,
    goal: saved.inputs.goal,
    recipe: saved.recipe.name,
    launchedBy,
    createdAt: Date.now(),
    owner: thisProcessOwner(),
    version: extensionVersion,
  };
  await registry.write({ ...base, owner: thisProcessOwner(), ended: undefined });
  return { swarmId: saved.swarmId, stateDir, registry };
}

/** Writes how the run ended into its record (a failure too, with its message). */
export async function recordSwarmEnd(swarm: RecordedSwarm, end: SwarmSummary | Error): Promise<void> {
  const ended: NonNullable<SwarmRecord["ended"]> =
    end instanceof Error
      ? { outcome: "failed", reason: end.message.slice(0, 2000), at: Date.now() }
      : { outcome: end.outcome, reason: end.reason, at: Date.now(), reportPath: end.reportPath };
  await swarm.registry.update(swarm.swarmId, (record) => ({ ...record, ended }));
}
