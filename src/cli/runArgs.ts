// `swarmboard run` and `swarmboard watch`'s command lines (src/cli/runInputs.ts and watchInputs.ts read them).
import type { EngineSettings } from "../protocol/engine";
import type { GpuSetting, KvCacheType } from "../protocol/runtime";
import { askUserTimeoutSchema, maxAskUserTimeoutSeconds } from "../protocol/steering";
import { maxPoolSwarms, memoryBudgetForm, parseMemoryBudget, poolShareCellsSchema } from "../protocol/settings";
import { defaultWatchGoal } from "../core/builtinRecipes";
import { engineFlags, mebibytes, positiveInt, readFlags, runtimeFlags, serverFlag, UsageError } from "./flagParsing";

export interface RunOptions {
  command: "run";
  goal: string;
  /** A built-in recipe name or a path to a recipe JSON file; default organization (on --resume: the saved one). */
  recipe?: string;
  agents?: number;
  model?: string;
  /** Default: the current folder (on --resume: the saved one). */
  workspace?: string;
  /** Default 2 (on --resume: the saved count). */
  threads?: number;
  /** Wall-clock budget in milliseconds (overrides the recipe's). */
  budgetMs?: number;
  /** Tokens an agent may write before each call, for this run (overrides the recipe's budgets.thinkingTokens). */
  thinkingTokens?: number;
  kvCells?: number;
  /** Most memory the KV cache may take, as written ("6GB"); checked to be a size with its unit. */
  memoryBudget?: string;
  /** Most KV cells this swarm may take of a pool it shares with other swarms (default: a fair share). */
  poolShare?: number;
  /** How many swarms a pool this run creates is sized for (default 1). */
  poolSwarms?: number;
  /** Where the model runs (default auto: the machine's GPU when a build for it loads, else the CPU). */
  gpu?: GpuSetting;
  /** The KV cache's element type (default f16). */
  kvCacheType?: KvCacheType;
  /** Which engine computes the tokens (default local). */
  engine?: EngineSettings;
  /** JSON-lines trace of every event; default `<state-dir>/events.jsonl`. */
  events?: string;
  stateDir?: string;
  /** Continue an interrupted swarm from its state dir: board and branches are kept. */
  resume: boolean;
  /** A file of scripted turns (deterministic runs: the agents' tokens are forced). */
  script?: string;
  /** Commands the policy would ask about are allowed instead of denied (there is no one to ask). */
  approveAsks: boolean;
  /** Plain lines even on a TTY. */
  plain: boolean;
  /** Leave the repository's agent-rules files (AGENTS.md and the like) out of the trunk. */
  noAgentRules: boolean;
  /** Seconds an agent's ask_user question waits for an answer on stdin (0: nobody answers); default 300 on a TTY, else 0. */
  askUserTimeout?: number;
  /** Writers' worktrees are sparse above this many MiB per checkout (0: always); wins over the recipe's. */
  sparseAboveMiB?: number;
  /** `swarmboard watch`: a standing swarm that takes triggers until stopped. */
  watch?: WatchOptions;
  /** On the user's shared worker (`swarmboard serve`, started when none runs); --no-server or SWARMBOARD_SERVER=0: here. */
  server: boolean;
}

export interface WatchOptions {
  /** A recorded trigger stream (one JSON trigger a line) taken before the router starts. */
  triggers?: string;
  /** A JSON file of fast-path rules (src/protocol/triggers.ts's triggerRulesSchema). */
  rules?: string;
  /** Poll the person's branch for commits every this many milliseconds. */
  pollMs?: number;
}

const runFlags = new Set([
  "--goal",
  "--recipe",
  "--agents",
  "--model",
  "--workspace",
  "--threads",
  "--budget-ms",
  "--thinking-tokens",
  "--kv-cells",
  "--memory-budget",
  "--pool-share",
  "--pool-swarms",
  "--gpu",
  "--kv-cache-type",
  "--engine",
  "--engine-url",
  "--engine-model",
  "--engine-dialect",
  "--events",
  "--state-dir",
  "--script",
  "--ask-user-timeout",
  "--sparse-above-mib",
]);
const runSwitches = new Set(["--resume", "--approve-asks", "--plain", "--no-agent-rules", "--server", "--no-server"]);
const watchFlags = new Set([...runFlags, "--triggers", "--trigger-rules", "--poll-ms"]);

export function parseWatch(argv: string[], env: NodeJS.ProcessEnv = process.env): RunOptions {
  const f = readFlags(argv, watchFlags, runSwitches);
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (watchFlags.has(argv[i]!) && !runFlags.has(argv[i]!)) i++;
    else rest.push(argv[i]!);
  }
  const resume = f.has("--resume");
  const run = parseRun(resume || f.has("--goal") ? rest : [...rest, "--goal", defaultWatchGoal], env);
  const pollMs = f.get("--poll-ms");
  return {
    ...run,
    recipe: run.recipe ?? (resume ? undefined : "watch"),
    watch: {
      triggers: f.get("--triggers"),
      rules: f.get("--trigger-rules"),
      pollMs: pollMs === undefined ? undefined : positiveInt("--poll-ms", pollMs),
    },
  };
}

export function parseRun(argv: string[], env: NodeJS.ProcessEnv = process.env): RunOptions {
  const f = readFlags(argv, runFlags, runSwitches);
  const goal = f.get("--goal");
  const resume = f.has("--resume");
  if (goal === undefined && !resume)
    throw new UsageError('run needs --goal "<what the swarm should do>" (or --resume).');
  const opt = (flag: string, parse: (flag: string, v: string) => number) => {
    const v = f.get(flag);
    return v === undefined ? undefined : parse(flag, v);
  };
  return {
    command: "run",
    goal: goal ?? "",
    recipe: f.get("--recipe"),
    agents: opt("--agents", positiveInt),
    model: f.get("--model"),
    workspace: f.get("--workspace"),
    threads: opt("--threads", positiveInt),
    budgetMs: opt("--budget-ms", positiveInt),
    thinkingTokens: opt("--thinking-tokens", positiveInt),
    kvCells: opt("--kv-cells", positiveInt),
    memoryBudget: memoryBudgetFlag(f.get("--memory-budget")),
    poolShare: opt("--pool-share", poolShareFlag),
    poolSwarms: opt("--pool-swarms", poolSwarmsFlag),
    ...runtimeFlags(f),
    ...engineFlags(f),
    events: f.get("--events"),
    stateDir: f.get("--state-dir"),
    resume,
    script: f.get("--script"),
    approveAsks: f.has("--approve-asks"),
    plain: f.has("--plain"),
    noAgentRules: f.has("--no-agent-rules"),
    askUserTimeout: opt("--ask-user-timeout", askUserSeconds),
    sparseAboveMiB: opt("--sparse-above-mib", mebibytes),
    server: serverFlag(f, env),
  };
}

export function askUserSeconds(flag: string, value: string): number {
  const parsed = askUserTimeoutSchema.safeParse(Number(value));
  if (!/^\d+$/.test(value) || !parsed.success)
    throw new UsageError(
      `${flag} expects whole seconds from 0 (nobody answers) to ${maxAskUserTimeoutSeconds}, got "${value}".`,
    );
  return parsed.data;
}

function memoryBudgetFlag(value: string | undefined): string | undefined {
  if (value === undefined || parseMemoryBudget(value) !== undefined) return value;
  throw new UsageError(`--memory-budget expects ${memoryBudgetForm}; got "${value}".`);
}

function poolShareFlag(flag: string, value: string): number {
  const cells = positiveInt(flag, value);
  if (poolShareCellsSchema.safeParse(cells).success) return cells;
  throw new UsageError(`${flag} expects 256 KV cells or more (one llama.cpp block); got "${value}".`);
}

function poolSwarmsFlag(flag: string, value: string): number {
  const swarms = positiveInt(flag, value);
  if (swarms <= maxPoolSwarms) return swarms;
  throw new UsageError(`${flag} expects 1 to ${maxPoolSwarms} swarms; got "${value}".`);
}
