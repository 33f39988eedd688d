// The CLI's command line, parsed into data (no I/O here): `run`, `model pull`, `--help`, `--version`.
// Every flag has one meaning and a bad one gets a message that says what was expected.
import type { EngineSettings } from "../protocol/engine";
import type { GpuSetting, KvCacheType } from "../protocol/runtime";
import { askUserTimeoutSchema, maxAskUserTimeoutSeconds } from "../protocol/steering";
import { defaultWatchGoal } from "../core/builtinRecipes";
import { parseEval, type EvalOptions } from "./evalArgs";
import { engineFlags, positiveInt, readFlags, runtimeFlags, UsageError } from "./flagParsing";

export { UsageError } from "./flagParsing";
export type { EvalOptions } from "./evalArgs";

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
  /** `swarmboard watch`: a standing swarm that takes triggers until stopped. */
  watch?: WatchOptions;
}

export interface WatchOptions {
  /** A recorded trigger stream (one JSON trigger a line) taken before the router starts. */
  triggers?: string;
  /** A JSON file of fast-path rules (src/protocol/triggers.ts's triggerRulesSchema). */
  rules?: string;
  /** Poll the person's branch for commits every this many milliseconds. */
  pollMs?: number;
}

export interface PullOptions {
  command: "pull";
  /** A Hugging Face URI, an https URL, or a name from the catalogue (`model pull --list`). */
  uri: string;
  dir?: string;
}

/** `model pull --list`: the curated catalogue, with what fits in `kvCells` (default 16,384). */
export interface PullListOptions {
  command: "pull-list";
  kvCells?: number;
}

/** `list`: the repository's swarms. */
export interface ListOptions {
  command: "list";
  workspace?: string;
}

/** `clean-up <id>`: a dry run, or with the code the dry run printed, the removal of what it listed. */
export interface CleanUpOptions {
  command: "clean-up";
  swarmId: string;
  workspace?: string;
  confirm?: string;
}

/** `swarmboard mcp`: an MCP server on stdio; swarms it launches use these. */
export interface McpOptions {
  command: "mcp";
  model?: string;
  workspace: string;
  /** Where each launched swarm's state dir is made (default: <workspace>/../.swarmboard-state/mcp). */
  stateRoot?: string;
  threads: number;
  kvCells?: number;
  gpu?: GpuSetting;
  kvCacheType?: KvCacheType;
  script?: string;
  approveAsks: boolean;
  noAgentRules: boolean;
}

export type CliCommand =
  | RunOptions
  | EvalOptions
  | McpOptions
  | PullOptions
  | PullListOptions
  | ListOptions
  | CleanUpOptions
  | { command: "replay-script"; events: string }
  | { command: "help" }
  | { command: "version" };

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
]);
const runSwitches = new Set(["--resume", "--approve-asks", "--plain", "--no-agent-rules"]);
const watchFlags = new Set([...runFlags, "--triggers", "--trigger-rules", "--poll-ms"]);

export { defaultWatchGoal } from "../core/builtinRecipes";

function parseWatch(argv: string[]): RunOptions {
  const f = readFlags(argv, watchFlags, runSwitches);
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (watchFlags.has(argv[i]!) && !runFlags.has(argv[i]!)) i++;
    else rest.push(argv[i]!);
  }
  const resume = f.has("--resume");
  const run = parseRun(resume || f.has("--goal") ? rest : [...rest, "--goal", defaultWatchGoal]);
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

function parseRun(argv: string[]): RunOptions {
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
  };
}

function askUserSeconds(flag: string, value: string): number {
  const parsed = askUserTimeoutSchema.safeParse(Number(value));
  if (!/^\d+$/.test(value) || !parsed.success)
    throw new UsageError(
      `${flag} expects whole seconds from 0 (nobody answers) to ${maxAskUserTimeoutSeconds}, got "${value}".`,
    );
  return parsed.data;
}

function parseMcp(argv: string[]): McpOptions {
  const flags = new Set([
    "--model",
    "--workspace",
    "--state-root",
    "--threads",
    "--kv-cells",
    "--gpu",
    "--kv-cache-type",
    "--script",
  ]);
  const f = readFlags(argv, flags, new Set(["--approve-asks", "--no-agent-rules"]));
  const int = (flag: string) => (f.has(flag) ? positiveInt(flag, f.get(flag)!) : undefined);
  return {
    command: "mcp",
    model: f.get("--model"),
    workspace: f.get("--workspace") ?? ".",
    stateRoot: f.get("--state-root"),
    threads: int("--threads") ?? 2,
    kvCells: int("--kv-cells"),
    ...runtimeFlags(f),
    script: f.get("--script"),
    approveAsks: f.has("--approve-asks"),
    noAgentRules: f.has("--no-agent-rules"),
  };
}

export function parseCommandLine(argv: string[]): CliCommand {
  const [first, ...rest] = argv;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") return { command: "help" };
  if (first === "--version") return { command: "version" };
  if (first === "run") return parseRun(rest);
  if (first === "watch") return parseWatch(rest);
  if (first === "list") {
    const f = readFlags(rest, new Set(["--workspace"]), new Set());
    return { command: "list", workspace: f.get("--workspace") };
  }
  if (first === "clean-up") {
    const swarmId = rest[0];
    if (swarmId === undefined || swarmId.startsWith("--"))
      throw new UsageError("clean-up expects a swarm id (see `swarmboard list`).");
    const f = readFlags(rest.slice(1), new Set(["--workspace", "--confirm"]), new Set());
    return { command: "clean-up", swarmId, workspace: f.get("--workspace"), confirm: f.get("--confirm") };
  }
  if (first === "mcp") return parseMcp(rest);
  if (first === "eval") return parseEval(rest);
  if (first === "replay-script") {
    if (rest.length !== 1 || rest[0]!.startsWith("--"))
      throw new UsageError("replay-script expects one events file (events.jsonl).");
    return { command: "replay-script", events: rest[0]! };
  }
  if (first === "model" && rest[0] === "pull") {
    if (rest[1] === "--list") {
      const f = readFlags(rest.slice(2), new Set(["--kv-cells"]), new Set());
      const kvCells = f.get("--kv-cells");
      return { command: "pull-list", ...(kvCells ? { kvCells: positiveInt("--kv-cells", kvCells) } : {}) };
    }
    const f = readFlags(rest.slice(2), new Set(["--dir"]), new Set());
    const uri = rest[1];
    if (uri === undefined || uri.startsWith("--"))
      throw new UsageError(
        "model pull expects a Hugging Face URI (e.g. hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M), an https URL, " +
          "or a name from `swarmboard model pull --list` (e.g. qwen2.5-1.5b)",
      );
    return { command: "pull", uri, dir: f.get("--dir") };
  }
  throw new UsageError(`unknown command "${argv.join(" ")}".`);
}
