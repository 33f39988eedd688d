// The CLI's command line, parsed into data (no I/O here): which command, then its flags (run and watch in
// runArgs.ts, eval in evalArgs.ts). Every flag has one meaning and a bad one gets a message that says what was expected.
import type { GpuSetting, KvCacheType } from "../protocol/runtime";
import { parseEval, type EvalOptions } from "./evalArgs";
import { positiveInt, readFlags, runtimeFlags, serverFlag, UsageError } from "./flagParsing";
import { askUserSeconds, parseRun, parseWatch, type RunOptions } from "./runArgs";

export { UsageError } from "./flagParsing";
export type { EvalOptions } from "./evalArgs";
export type { RunOptions } from "./runArgs";
export { defaultWatchGoal } from "../core/builtinRecipes";

export interface PullOptions {
  command: "pull";
  /** A Hugging Face URI, an https URL, or a name from the catalogue (`model pull --list`). */
  uri: string;
  dir?: string;
  /** Seconds without a byte from the server before the download is given up (default 60). */
  timeoutSeconds?: number;
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
  /** Seconds an agent's ask_user waits for a client's answer_question (default 0: agents decide alone). */
  askUserTimeout?: number;
  /** On the user's shared worker (`swarmboard serve`, the default); --no-server or SWARMBOARD_SERVER=0: here. */
  server: boolean;
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

export function parseMcp(argv: string[]): McpOptions {
  const flags = new Set([
    "--model",
    "--workspace",
    "--state-root",
    "--threads",
    "--kv-cells",
    "--gpu",
    "--kv-cache-type",
    "--script",
    "--ask-user-timeout",
  ]);
  const f = readFlags(argv, flags, new Set(["--approve-asks", "--no-agent-rules", "--server", "--no-server"]));
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
    server: serverFlag(f),
    ...(f.has("--ask-user-timeout")
      ? { askUserTimeout: askUserSeconds("--ask-user-timeout", f.get("--ask-user-timeout")!) }
      : {}),
  };
}

export function parseList(argv: string[]): ListOptions {
  const f = readFlags(argv, new Set(["--workspace"]), new Set());
  return { command: "list", workspace: f.get("--workspace") };
}

export function parseCleanUp(argv: string[]): CleanUpOptions {
  const swarmId = argv[0];
  if (swarmId === undefined || swarmId.startsWith("--"))
    throw new UsageError("clean-up expects a swarm id (see `swarmboard list`).");
  const f = readFlags(argv.slice(1), new Set(["--workspace", "--confirm"]), new Set());
  return { command: "clean-up", swarmId, workspace: f.get("--workspace"), confirm: f.get("--confirm") };
}

export function parseReplayScript(argv: string[]): { command: "replay-script"; events: string } {
  if (argv.length !== 1 || argv[0]!.startsWith("--"))
    throw new UsageError("replay-script expects one events file (events.jsonl).");
  return { command: "replay-script", events: argv[0]! };
}

/** `model pull`'s arguments (after `model pull`). */
export function parseModelPull(argv: string[]): PullOptions | PullListOptions {
  if (argv[0] === "--list") {
    const f = readFlags(argv.slice(1), new Set(["--kv-cells"]), new Set());
    const kvCells = f.get("--kv-cells");
    return { command: "pull-list", ...(kvCells ? { kvCells: positiveInt("--kv-cells", kvCells) } : {}) };
  }
  const f = readFlags(argv.slice(1), new Set(["--dir", "--timeout"]), new Set());
  const uri = argv[0];
  if (uri === undefined || uri.startsWith("--"))
    throw new UsageError(
      "model pull expects a Hugging Face URI (e.g. hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M), an https URL, " +
        "or a name from `swarmboard model pull --list` (e.g. qwen2.5-1.5b)",
    );
  const timeout = f.get("--timeout");
  return {
    command: "pull",
    uri,
    dir: f.get("--dir"),
    ...(timeout ? { timeoutSeconds: positiveInt("--timeout", timeout) } : {}),
  };
}

export function parseCommandLine(argv: string[]): CliCommand {
  const [first, ...rest] = argv;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") return { command: "help" };
  if (first === "--version") return { command: "version" };
  if (first === "run") return parseRun(rest);
  if (first === "watch") return parseWatch(rest);
  if (first === "list") return parseList(rest);
  if (first === "clean-up") return parseCleanUp(rest);
  if (first === "mcp") return parseMcp(rest);
  if (first === "eval") return parseEval(rest);
  if (first === "replay-script") return parseReplayScript(rest);
  if (first === "model" && rest[0] === "pull") return parseModelPull(rest.slice(1));
  throw new UsageError(`unknown command "${argv.join(" ")}".`);
}
