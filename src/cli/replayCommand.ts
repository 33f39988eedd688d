// `swarmboard replay <state dir | events.jsonl>`: a recorded swarm run again with every call forced from its
// trace (replay-script's extraction, then `run --script`), with the goal, recipe, model and settings its state
// dir saved, as a new swarm on the workspace given (a checkout of the commit the recorded run started from).
// The replay's own state dir and events file let its board, merged files and report be compared with the run's.
// A workspace at another commit than the one the run started from is refused (the calls would read other files).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { scriptFromTrace } from "../core/traceScript";
import { readSavedSwarm } from "../worker/swarmRecords";
import { replayCommit } from "../worker/replayCommit";
import { positiveInt, readFlags, UsageError } from "./flagParsing";
import { InputError, kindOf } from "./inputChecks";
import { readEventsFile } from "./replayScript";
import { runCommand } from "./runCommand";

export interface ReplayOptions {
  readonly command: "replay";
  /** A recorded run's state dir, or its events.jsonl (its state dir is the folder that holds it). */
  readonly source: string;
  /** Default: the current folder. */
  readonly workspace?: string;
  /** Default: the model the run saved. */
  readonly model?: string;
  readonly stateDir?: string;
  /** Default: the threads the run saved. */
  readonly threads?: number;
  readonly plain: boolean;
}

export function parseReplay(argv: string[]): ReplayOptions {
  const source = argv[0];
  if (source === undefined || source.startsWith("--"))
    throw new UsageError("replay expects a recorded run's state dir or its events.jsonl.");
  const f = readFlags(
    argv.slice(1),
    new Set(["--workspace", "--model", "--state-dir", "--threads"]),
    new Set(["--plain"]),
  );
  const threads = f.get("--threads");
  return {
    command: "replay",
    source,
    workspace: f.get("--workspace"),
    model: f.get("--model"),
    stateDir: f.get("--state-dir"),
    ...(threads ? { threads: positiveInt("--threads", threads) } : {}),
    plain: f.has("--plain"),
  };
}

/** The recorded run's state dir and events file, from either one. */
async function recordedRun(source: string): Promise<{ stateDir: string; eventsFile: string }> {
  const resolved = path.resolve(source);
  const kind = await kindOf(resolved);
  if (kind === "missing")
    throw new InputError(`${resolved} does not exist: give replay a run's state dir or its events.jsonl.`);
  return kind === "folder"
    ? { stateDir: resolved, eventsFile: path.join(resolved, "events.jsonl") }
    : { stateDir: path.dirname(resolved), eventsFile: resolved };
}

/** A workspace at another commit than the run's is refused; one whose commit is not known is replayed, said so. */
async function checkSameCommit(workspace: string, recorded: { workspace: string; swarmId: string }): Promise<void> {
  const found = await replayCommit(workspace, recorded).catch((error: Error) => {
    throw new InputError(error.message);
  });
  if (found.state === "moved") throw new InputError(found.problem);
  if (found.state === "unknown") process.stderr.write(`warning: ${found.warning}\n`);
}

export async function replayCommand(opts: ReplayOptions): Promise<number> {
  const { stateDir, eventsFile } = await recordedRun(opts.source);
  const saved = await readSavedSwarm(stateDir).catch((error: Error) => {
    throw new InputError(`${error.message} replay reads the goal, recipe and model a run saved beside its events.`);
  });
  const events = await readEventsFile(eventsFile, (line) => process.stderr.write(`warning: ${line}\n`));
  const script = scriptFromTrace(events);
  if (Object.keys(script.agents).length === 0)
    throw new InputError(`${eventsFile} records no tool call: there is nothing to replay.`);
  const { inputs } = saved;
  await checkSameCommit(path.resolve(opts.workspace ?? "."), { workspace: inputs.workspace, swarmId: saved.swarmId });
  const scratch = await mkdtemp(path.join(os.tmpdir(), "swarmboard-replay-"));
  try {
    const scriptFile = path.join(scratch, "script.json");
    await writeFile(scriptFile, JSON.stringify(script));
    process.stdout.write(`replaying swarm ${saved.swarmId} (${eventsFile})\n`);
    return await runCommand({
      command: "run",
      // A replay compares with the recorded run in this process (the server's other swarms would not interleave).
      server: false,
      goal: inputs.goal,
      recipe: path.join(stateDir, "recipe.json"),
      ...(inputs.agents ? { agents: inputs.agents } : {}),
      model: opts.model ?? inputs.modelPath,
      ...(opts.workspace ? { workspace: opts.workspace } : {}),
      threads: opts.threads ?? inputs.threads,
      ...(inputs.budgetMs ? { budgetMs: inputs.budgetMs } : {}),
      ...(inputs.kvCells ? { kvCells: inputs.kvCells } : {}),
      ...(inputs.gpu ? { gpu: inputs.gpu } : {}),
      ...(inputs.kvCacheType ? { kvCacheType: inputs.kvCacheType } : {}),
      ...(inputs.sparseCheckoutAboveMiB !== undefined ? { sparseAboveMiB: inputs.sparseCheckoutAboveMiB } : {}),
      ...(opts.stateDir ? { stateDir: opts.stateDir } : {}),
      resume: false,
      script: scriptFile,
      approveAsks: inputs.approveAsks ?? false,
      plain: opts.plain,
      noAgentRules: false,
      // A recorded question's answer is not in the trace: nobody answers in a replay.
      askUserTimeout: 0,
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
